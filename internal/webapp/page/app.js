// The Mini App: reads the signed user's portfolios from the bot and shows
// them. initData comes from Telegram's script, or, where that script did
// not load (a test link opened in a browser), from the URL fragment the
// way Telegram's clients pass it.
(function () {
  "use strict";
  var tg = window.Telegram && window.Telegram.WebApp;
  var hash = new URLSearchParams(location.hash.slice(1));
  var initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
  var signed = new URLSearchParams(initData);
  var startParam = signed.get("start_param") || "";
  var state = { me: null, market: "", chart: null, series: null, deposits: null, price: null, priceSeries: null };
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function show(id) {
    ["loading", "app", "denied", "failed"].forEach(function (s) { $(s).hidden = s !== id; });
  }

  // The colours of Telegram's theme, or the browser's light or dark.
  function themeParams() {
    if (tg && tg.themeParams && tg.themeParams.bg_color) return tg.themeParams;
    try { return JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) { return {}; }
  }

  function isDark(hex) {
    var m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
    if (!m) return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
    var l = 0.299 * parseInt(m[1], 16) + 0.587 * parseInt(m[2], 16) + 0.114 * parseInt(m[3], 16);
    return l < 128;
  }

  function applyTheme(tp) {
    var root = document.documentElement.style;
    Object.keys(tp || {}).forEach(function (k) {
      if (/^[a-z_]+$/.test(k)) root.setProperty("--tg-theme-" + k.replace(/_/g, "-"), tp[k]);
    });
    document.documentElement.dataset.theme = isDark(tp && tp.bg_color) ? "dark" : "light";
    styleChart();
  }

  function css(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

  function styleChart() {
    var text = css("--text"), hint = css("--hint"), accent = css("--accent");
    var grid = { vertLines: { color: "rgba(128,128,128,0.12)" }, horzLines: { color: "rgba(128,128,128,0.12)" } };
    if (state.price) state.price.applyOptions({ layout: { background: { type: "solid", color: css("--card") }, textColor: text }, grid: grid });
    if (!state.chart) return;
    state.chart.applyOptions({
      layout: { background: { type: "solid", color: css("--card") }, textColor: text },
      grid: grid,
    });
    state.series.applyOptions({ lineColor: accent, topColor: accent + "66", bottomColor: accent + "08" });
    state.deposits.applyOptions({ color: hint });
  }

  // A holding's price over a period, from the market's chart sources:
  // candles where they have opens and highs, else a line.
  function loadPrice(market, symbol, period) {
    api("api/" + market + "/chart?symbol=" + encodeURIComponent(symbol) + "&period=" + encodeURIComponent(period || "")).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (c) {
      $("price").hidden = false;
      if (!c) { $("pricetitle").textContent = symbol + ": no price history now"; $("pricechart").hidden = true; return; }
      $("pricechart").hidden = false;
      $("pricetitle").textContent = c.label + " " + c.period;
      $("pricenote").textContent = "Prices: " + c.source + (c.note ? " (" + c.note + ")" : "");
      var nav = $("periods");
      nav.textContent = "";
      c.periods.forEach(function (p) {
        var b = el("button", p);
        b.setAttribute("aria-selected", String(p === c.period));
        b.addEventListener("click", function () { loadPrice(market, symbol, p); });
        nav.appendChild(b);
      });
      var LC = window.LightweightCharts;
      if (state.price) state.price.remove();
      state.price = LC.createChart($("pricechart"), { autoSize: true, crosshair: { mode: LC.CrosshairMode.Normal },
        timeScale: { timeVisible: true, borderVisible: false }, rightPriceScale: { borderVisible: false } });
      var bars = c.bars.map(function (b) { return { time: b.t, open: b.o, high: b.h, low: b.l, close: b.c, value: b.c }; });
      state.priceSeries = c.ohlc ? state.price.addSeries(LC.CandlestickSeries, {}) : state.price.addSeries(LC.LineSeries, { lineWidth: 2 });
      state.priceSeries.setData(bars);
      state.price.timeScale().fitContent();
      styleChart();
    }).catch(function () {});
  }

  function drawChart(values) {
    var box = $("chart");
    $("nochart").hidden = values.length > 0;
    box.hidden = values.length === 0;
    if (!values.length) return;
    if (!state.chart) {
      var LC = window.LightweightCharts;
      state.chart = LC.createChart(box, {
        autoSize: true,
        crosshair: { mode: LC.CrosshairMode.Normal },
        rightPriceScale: { borderVisible: false },
        timeScale: { borderVisible: false },
      });
      state.series = state.chart.addSeries(LC.AreaSeries, { lineWidth: 2, priceLineVisible: false });
      state.deposits = state.chart.addSeries(LC.LineSeries, { lineWidth: 1, lineStyle: LC.LineStyle.Dashed, priceLineVisible: false, lastValueVisible: false });
      state.chart.subscribeCrosshairMove(function (p) { state.crosshair = p.time || null; });
      styleChart();
    }
    state.series.setData(values.map(function (v) { return { time: v.day, value: v.value }; }));
    state.deposits.setData(values.map(function (v) { return { time: v.day, value: v.deposited }; }));
    state.chart.timeScale().fitContent();
  }

  function sign(a) { return a.value.charAt(0) === "-" ? "down" : (/^0(\.0*)?$/.test(a.value) ? "" : "up"); }

  function term(dl, name, amount, id) {
    var d = el("div"), dd = el("dd", amount.text, amount === state.pl ? sign(amount) : "");
    dd.id = id;
    d.appendChild(el("dt", name));
    d.appendChild(dd);
    dl.appendChild(d);
  }

  function renderMarket(name) {
    var p = state.me.modules[name];
    state.market = name;
    Array.prototype.forEach.call($("tabs").children, function (b) { b.setAttribute("aria-selected", String(b.dataset.market === name)); });
    $("start").hidden = p.found;
    $("start").textContent = p.found ? "" : "No " + name + " portfolio yet. Start with " + p.start + " in the chat.";
    var dl = $("summary");
    dl.textContent = "";
    state.pl = p.pl;
    if (p.found) {
      term(dl, "Total", p.total, "total");
      term(dl, "P/L", p.pl, "pl");
      term(dl, "Cash", p.cash, "cash");
      term(dl, "Invested", p.invested, "invested");
    }
    drawChart(p.values);
    var body = $("holdings").tBodies[0];
    body.textContent = "";
    $("price").hidden = true;
    p.holdings.forEach(function (h) {
      var tr = el("tr");
      tr.dataset.symbol = h.symbol;
      tr.addEventListener("click", function () { loadPrice(name, h.symbol); });
      var what = el("td", h.qty + " " + h.unit);
      what.appendChild(el("small", h.price_known ? " @ " + h.price.text : " no price now", "hint"));
      tr.appendChild(what);
      tr.appendChild(el("td", h.price_known ? h.value.text : "—"));
      tr.appendChild(el("td", h.price_known ? h.pl.text : "—", h.price_known ? sign(h.pl) : ""));
      body.appendChild(tr);
    });
    var ol = $("trades");
    ol.textContent = "";
    p.trades.forEach(function (t) {
      var li = el("li"), left = el("span", t.kind === "topup" ? "Top-up" : (t.kind === "buy" ? "Buy " : "Sell ") + (t.qty || "") + " " + (t.symbol || ""));
      left.appendChild(el("small", new Date(t.at).toLocaleString() + (t.price ? " @ " + t.price.text : "")));
      li.appendChild(left);
      li.appendChild(el("span", t.cash.text, sign(t.cash)));
      ol.appendChild(li);
    });
  }

  function render(me) {
    state.me = me;
    $("hello").textContent = me.user.first_name ? me.user.first_name + "'s portfolio" : "Portfolio";
    var names = Object.keys(me.modules).sort();
    var nav = $("tabs");
    nav.textContent = "";
    names.forEach(function (n) {
      var b = el("button", n.charAt(0).toUpperCase() + n.slice(1));
      b.dataset.market = n;
      b.setAttribute("role", "tab");
      b.addEventListener("click", function () { renderMarket(n); });
      nav.appendChild(b);
    });
    var first = names.filter(function (n) { return me.modules[n].found; })[0] || names[0];
    show("app");
    if (first) renderMarket(first);
    if (startParam) loadBoards(names);
    // The frame that paints the figures: what docs/performance.md measures.
    requestAnimationFrame(function () { performance.mark("portfolio-painted"); });
  }

  function api(path) {
    return fetch(path, { headers: { Authorization: "tma " + initData }, cache: "no-store" });
  }

  // The board of the group the app was opened from, where a market has one
  // and the user traded there.
  function loadBoards(names) {
    names.forEach(function (n) {
      api("api/" + n + "/board?chat=" + encodeURIComponent(startParam)).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (b) {
        if (!b || !b.rows || !b.rows.length) return;
        var ol = $("boardrows");
        b.rows.forEach(function (row) {
          var li = el("li");
          li.appendChild(el("span", row.rank + ". " + row.name + " (" + n + ")"));
          li.appendChild(el("span", row.value.text));
          ol.appendChild(li);
        });
        $("board").hidden = false;
      }).catch(function () {});
    });
  }

  function start() {
    applyTheme(themeParams());
    if (tg) {
      tg.ready();
      tg.expand();
      tg.onEvent("themeChanged", function () { applyTheme(tg.themeParams); });
    }
    if (!initData) { show("denied"); return; }
    if (!window.LightweightCharts) { $("why").textContent = "The page's chart library did not load."; show("failed"); return; }
    api("api/me").then(function (r) {
      if (r.status === 401) { show("denied"); return null; }
      if (!r.ok) { show("failed"); return null; }
      return r.json();
    }).then(function (me) { if (me) render(me); }).catch(function () { show("failed"); });
  }

  window.miniApp = { applyTheme: applyTheme, state: state, renderMarket: renderMarket };
  start();
})();
