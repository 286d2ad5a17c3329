package webapp

// Chart is what make webapp-assets copied, for the tests.
var Chart = struct{ Version, Integrity, SHA256 string }(chart)

// PageTexts is the page's catalog.
var PageTexts = pageTexts
