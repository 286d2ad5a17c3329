package storage

// InProcess is implemented by a provider whose calls never leave the
// process (memory, bolt). Its calls cannot overlap one another usefully
// (one lock, or bolt's one writer at a time), so the core makes its
// independent writes one after another rather than pay a goroutine's
// handoff for nothing; with a network store it makes them at once.
type InProcess interface {
	KVProvider
	InProcess()
}

// IsInProcess reports whether p's calls stay in the process.
func IsInProcess(p KVProvider) bool {
	_, ok := p.(InProcess)
	return ok
}
