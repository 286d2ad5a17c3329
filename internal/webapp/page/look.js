// The page's look, apart from what it shows: Telegram's theme with gains
// and losses at WCAG AA contrast, and money on the charts as the bot
// writes it. app.js uses it as window.miniAppLook.
(function () {
  "use strict";

  function rgb(hex) {
    var m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
    return m ? [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)] : null;
  }

  // WCAG's relative luminance and contrast ratio.
  function luminance(c) {
    var l = c.map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  }
  function contrast(a, b) {
    var x = luminance(a), y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }

  function isDark(hex) {
    var c = rgb(hex);
    if (!c) return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
    return luminance(c) < 0.18;
  }

  // Gains and losses in colours that read at 4.5:1 on the page and on its
  // cards: Telegram's own red where it does, else the page's.
  var UPDOWN = { light: { up: "#147a48", down: "#c62828" }, dark: { up: "#4cd08a", down: "#ff7b72" } };
  function readable(hex, backs) {
    var c = rgb(hex);
    return !!c && backs.every(function (b) { return !b || contrast(c, b) >= 4.5; });
  }

  // setTheme puts Telegram's theme colours (tp) on the page and returns
  // "light" or "dark".
  function setTheme(tp) {
    tp = tp || {};
    var root = document.documentElement.style;
    Object.keys(tp).forEach(function (k) {
      if (/^[a-z_]+$/.test(k)) root.setProperty("--tg-theme-" + k.replace(/_/g, "-"), tp[k]);
    });
    var theme = isDark(tp.bg_color) ? "dark" : "light";
    document.documentElement.dataset.theme = theme;
    var backs = [rgb(css("--bg")), rgb(css("--card"))];
    var down = tp.destructive_text_color && readable(tp.destructive_text_color, backs) ? tp.destructive_text_color : UPDOWN[theme].down;
    root.setProperty("--up", UPDOWN[theme].up);
    root.setProperty("--down", down);
    return theme;
  }

  function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

  // Money on the charts, as the market's commands write it: the prefix,
  // suffix and decimals of its amounts ("$1,234.50", "1.234,50 $"), read
  // with the language's marks (the bot's: me.marks), and units, the short
  // millions, billions and trillions of an axis.
  var EN = { decimal: ".", group: "," };
  function quote(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function moneyFormat(text, marks, units) {
    marks = marks || EN;
    var m = new RegExp("^-?([^\\d-]*)[\\d" + quote(marks.group) + "]+(?:" + quote(marks.decimal) + "(\\d+))?(.*)$").exec(text || "");
    var f = m ? { prefix: m[1], suffix: m[3], cents: !!m[2] } : { prefix: "", suffix: "", cents: true };
    f.marks = marks;
    f.units = units || [[1e12, "T"], [1e9, "B"], [1e6, "M"]];
    return f;
  }
  // marked writes an en-US number with the language's marks.
  function marked(s, marks) { return s.replace(/[.,]/g, function (c) { return c === "." ? marks.decimal : marks.group; }); }
  function grouped(f, v, places) {
    return marked(Math.abs(v).toLocaleString("en-US", { minimumFractionDigits: places, maximumFractionDigits: places }), f.marks);
  }
  // places as the bot's charts pick them: dollars in cents under 1,000,
  // four significant digits under 1; dong whole.
  function placesFor(f, v) {
    var a = Math.abs(v);
    if (!f.cents || a >= 1000 || a === 0) return 0;
    return a >= 1 ? 2 : Math.min(8, 3 - Math.floor(Math.log10(a)));
  }
  // compact writes millions and billions short, so the axis stays narrow:
  // 510,000,000 is 510M (vi: 510 tr).
  function compact(f, v, digits) {
    var a = Math.abs(v), sign = v < 0 ? "-" : "";
    for (var i = 0; i < f.units.length; i++) {
      var u = f.units[i];
      if (a >= u[0]) return sign + f.prefix + marked(String(+(a / u[0]).toFixed(digits)), f.marks) + u[1];
    }
    return sign + f.prefix + grouped(f, v, placesFor(f, v));
  }
  function chartMoney(f) {
    return {
      priceFormatter: function (v) { return compact(f, v, 2); },
      tickmarksPriceFormatter: function (vs) { return vs.map(function (v) { return compact(f, v, 2); }); },
    };
  }

  window.miniAppLook = { css: css, rgb: rgb, contrast: contrast, setTheme: setTheme, moneyFormat: moneyFormat, chartMoney: chartMoney };
})();
