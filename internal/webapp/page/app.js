// The Mini App: reads the signed user's portfolios from the bot and shows
// them. initData comes from Telegram's script, or, where that script did
// not load (a test link opened in a browser), from the URL fragment the
// way Telegram's clients pass it. The data is asked first, the chart
// library right after, and the charts are drawn when both are in. Every
// word is the catalog's (window.miniAppTexts, from internal/webapp/locales), in the
// viewer's language: the bot's answer says it (their /language choice,
// else their client's); until it does, their client's language_code.
(function () {
  "use strict";
  var tg = window.Telegram && window.Telegram.WebApp;
  var hash = new URLSearchParams(location.hash.slice(1));
  var initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
  var signed = new URLSearchParams(initData);
  var startParam = signed.get("start_param") || "";
  // timeout bounds one request to the bot (the bot's own bound is 10 s).
  var config = { timeout: 12000 };
  var state = { lang: clientLang(), me: null, market: "", chart: null, series: null, deposits: null, price: null, priceSeries: null, priceSeq: 0, priceAbort: null, tapped: null, settled: 0 };
  var $ = function (id) { return document.getElementById(id); };
  var look = window.miniAppLook, css = look.css, chartMoney = look.chartMoney;
  var texts = window.miniAppTexts || {};

  // The chart library: asked once the data has been, so on a slow link
  // the small answer does not share the line with the large library.
  var library = new Promise(function (resolve, reject) { state.loadLibrary = function () {
    if (window.LightweightCharts) { resolve(window.LightweightCharts); return; }
    var meta = document.querySelector('meta[name="chart-library"]');
    if (!meta) { reject(new Error("no chart library")); return; }
    var s = document.createElement("script");
    s.src = meta.content;
    s.addEventListener("load", function () { if (window.LightweightCharts) resolve(window.LightweightCharts); else reject(new Error("no chart library")); });
    s.addEventListener("error", function () { reject(new Error("the chart library did not load")); });
    document.head.appendChild(s);
  }; });
  library.catch(function () {});

  // clientLang is the language initData's user has their client in: vi
  // (vi, vi-VN) is Vietnamese, any other English.
  function clientLang() {
    try { return /^vi(?:$|[-_])/i.test(JSON.parse(signed.get("user") || "{}").language_code || "") ? "vi" : "en"; } catch (e) { return "en"; }
  }

  // t is the catalog's text key in the page's language, its {{.Name}}
  // placeholders filled from args.
  function t(key, args) {
    var s = (texts[state.lang] || {})[key];
    if (s === undefined) s = (texts.en || {})[key];
    if (s === undefined) return key;
    return s.replace(/\{\{\s*\.(\w+)\s*\}\}/g, function (_, n) { return args && args[n] !== undefined ? String(args[n]) : ""; });
  }

  // speak puts the page in lang: the HTML's own words (data-t, data-t-aria)
  // and Telegram's button; what render draws reads t as it goes.
  function speak(lang) {
    state.lang = texts[lang] ? lang : "en";
    document.documentElement.lang = state.lang;
    document.title = t("title");
    document.querySelectorAll("[data-t]").forEach(function (e) { e.textContent = t(e.dataset.t); });
    document.querySelectorAll("[data-t-aria]").forEach(function (e) { e.setAttribute("aria-label", t(e.dataset.tAria)); });
    if (tg && tg.MainButton && tg.MainButton.setParams) tg.MainButton.setParams({ text: t("refresh") });
  }

  function marketName(n) {
    return { coin: t("market_coin"), gold: t("market_gold"), stock: t("market_stock") }[n] || n.charAt(0).toUpperCase() + n.slice(1);
  }

  // Telegram's client features, each where this client has it.
  function tgHas(version) { return !!(tg && tg.isVersionAtLeast && tg.isVersionAtLeast(version)); }
  function haptic(kind) {
    if (!tgHas("6.1") || !tg.HapticFeedback) return;
    if (kind === "select") tg.HapticFeedback.selectionChanged(); else tg.HapticFeedback.impactOccurred("light");
  }

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

  function applyTheme(tp) {
    look.setTheme(tp);
    styleCharts();
  }

  function marketFormat(name) {
    var p = state.me && state.me.modules[name];
    var units = [[1e12, t("axis_trillion")], [1e9, t("axis_billion")], [1e6, t("axis_million")]];
    return look.moneyFormat(p && p.cash ? p.cash.text : "", state.me && state.me.marks, units);
  }

  // Options every chart shares: a vertical swipe that starts on a chart
  // scrolls the page; a horizontal one pans, two fingers zoom.
  function chartOptions(LC, f, timed) {
    return {
      autoSize: true,
      crosshair: { mode: LC.CrosshairMode.Normal },
      handleScroll: { vertTouchDrag: false },
      handleScale: { axisPressedMouseMove: { time: true, price: false } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: timed },
      localization: localization(f),
    };
  }

  // The charts' money (the bot's marks) and dates (the catalog's) in the
  // page's language.
  function localization(f) {
    var l = chartMoney(f);
    l.locale = t("chart_locale");
    l.dateFormat = t("date_format");
    return l;
  }

  function styleCharts() {
    var text = css("--text"), hint = css("--hint"), accent = css("--accent");
    var look = { layout: { background: { type: "solid", color: css("--card") }, textColor: text },
      grid: { vertLines: { color: "rgba(128,128,128,0.12)" }, horzLines: { color: "rgba(128,128,128,0.12)" } } };
    if (state.price) state.price.applyOptions(look);
    if (state.priceSeries && state.priceSeries.seriesType() === "Candlestick") {
      state.priceSeries.applyOptions({ upColor: css("--up"), downColor: css("--down"), borderUpColor: css("--up"), borderDownColor: css("--down"), wickUpColor: css("--up"), wickDownColor: css("--down") });
    }
    if (!state.chart) return;
    state.chart.applyOptions(look);
    state.series.applyOptions({ lineColor: accent, topColor: accent + "66", bottomColor: accent + "08" });
    state.deposits.applyOptions({ color: hint });
  }

  // request asks the bot, bounded by config.timeout; it rejects with
  // {status}: the HTTP status, "timeout", "network" or "aborted". asked
  // is the request when already made (index.html's, for api/me).
  function request(path, ctl, asked) {
    ctl = ctl || new AbortController();
    var timer, timedOut = false;
    var late = new Promise(function (_, reject) {
      timer = setTimeout(function () { timedOut = true; ctl.abort(); reject({ status: "timeout" }); }, config.timeout);
    });
    var answer = (asked || fetch(path, { headers: { Authorization: "tma " + initData }, cache: "no-store", signal: ctl.signal })).then(function (r) {
      if (!r.ok) throw { status: r.status };
      return r.json();
    }).catch(function (e) {
      if (e && e.status) throw e;
      throw { status: timedOut ? "timeout" : (ctl.signal.aborted ? "aborted" : "network") };
    });
    return Promise.race([answer, late]).finally(function () { clearTimeout(timer); });
  }

  // What a failed request tells the user, and whether trying again helps.
  function failure(e, what) {
    switch (e.status) {
      case 401: return { text: t("failed_401"), retry: false };
      case 429: return { text: t("failed_429"), retry: true };
      case 404: return { text: t("failed_404", { What: what }), retry: false };
      case "timeout": return { text: t("failed_timeout"), retry: true };
      case "network": return { text: t("failed_network"), retry: true };
      default: return { text: t("failed_other", { Status: e.status }), retry: true };
    }
  }

  function priceStatus(text, retry) {
    $("pricestatus").hidden = !text;
    $("pricemsg").textContent = text || "";
    $("retry").hidden = !retry;
    state.retry = retry || null;
  }

  // A holding's price over a period, from the market's chart sources:
  // candles where they have opens and highs, else a line. Only the answer
  // to the latest tap is drawn.
  function loadPrice(market, symbol, period) {
    var seq = ++state.priceSeq;
    if (state.priceAbort) state.priceAbort.abort();
    var ctl = new AbortController();
    state.priceAbort = ctl;
    $("price").hidden = false;
    $("pricetitle").textContent = symbol + (period ? " " + period : "");
    $("pricechart").hidden = true;
    $("pricenote").textContent = "";
    priceStatus(t("loading_symbol", { Symbol: symbol }), null);
    var again = function () { haptic("tap"); loadPrice(market, symbol, period); };
    Promise.all([request("api/" + market + "/chart?symbol=" + encodeURIComponent(symbol) + "&period=" + encodeURIComponent(period || ""), ctl), library]).then(function (got) {
      state.settled++;
      if (seq !== state.priceSeq) return;
      state.priceAnswer = got[0];
      drawPrice(got[1], market, symbol, got[0]);
    }, function (e) {
      state.settled++;
      if (seq !== state.priceSeq || (e && e.status === "aborted")) return;
      if (!e || e.status === undefined) { priceStatus(t("no_library_price"), null); return; }
      var f = failure(e, symbol);
      priceStatus(f.text, f.retry ? again : null);
    });
  }

  function drawPrice(LC, market, symbol, c) {
    priceStatus("", null);
    $("pricechart").hidden = false;
    $("pricetitle").textContent = c.label + " " + c.period;
    $("pricenote").textContent = c.note ? t("price_note_with", { Source: c.source, Note: c.note }) : t("price_note", { Source: c.source });
    var nav = $("periods");
    nav.textContent = "";
    c.periods.forEach(function (p) {
      var b = el("button", p);
      b.type = "button";
      b.setAttribute("aria-pressed", String(p === c.period));
      b.addEventListener("click", function () { haptic("select"); loadPrice(market, symbol, p); });
      nav.appendChild(b);
    });
    if (state.price) state.price.remove();
    state.price = LC.createChart($("pricechart"), chartOptions(LC, marketFormat(market), true));
    // The chart reads times as UTC: the bars are moved by the viewer's
    // clock's offset (Vietnam's until they choose another with /timezone),
    // so they show the clock the trades do.
    var bars = c.bars.map(function (b) { var at = b.t + c.offset; return { time: at, open: b.o, high: b.h, low: b.l, close: b.c, value: b.c }; });
    state.priceSeries = c.ohlc ? state.price.addSeries(LC.CandlestickSeries, {}) : state.price.addSeries(LC.LineSeries, { lineWidth: 2 });
    state.priceSeries.setData(bars);
    state.price.timeScale().fitContent();
    styleCharts();
  }

  // The tapped holding's chart comes into view, and Back (Telegram's, or
  // the page's own) returns to the holding.
  function openPrice(market, symbol, row) {
    haptic("tap");
    state.tapped = row;
    loadPrice(market, symbol);
    $("price").scrollIntoView({ block: "start" });
    if (tgHas("6.1")) tg.BackButton.show();
  }

  function closePrice() {
    state.priceSeq++;
    if (state.priceAbort) state.priceAbort.abort();
    $("price").hidden = true;
    if (tgHas("6.1")) tg.BackButton.hide();
    if (state.tapped) {
      state.tapped.scrollIntoView({ block: "center" });
      var b = state.tapped.querySelector("button");
      if (b) b.focus({ preventScroll: true });
    }
  }

  function drawValues(LC, values, market) {
    var box = $("chart");
    if (!state.chart) {
      state.chart = LC.createChart(box, chartOptions(LC, marketFormat(market), false));
      state.series = state.chart.addSeries(LC.AreaSeries, { lineWidth: 2, priceLineVisible: false });
      state.deposits = state.chart.addSeries(LC.LineSeries, { lineWidth: 1, lineStyle: LC.LineStyle.Dashed, priceLineVisible: false, lastValueVisible: false });
      state.chart.subscribeCrosshairMove(function (p) { state.crosshair = p.time || null; });
      styleCharts();
    }
    state.chart.applyOptions({ localization: localization(marketFormat(market)) });
    state.series.setData(values.map(function (v) { return { time: v.day, value: v.value }; }));
    state.deposits.setData(values.map(function (v) { return { time: v.day, value: v.deposited }; }));
    state.chart.timeScale().fitContent();
  }

  function drawChart(values, market) {
    var box = $("chart");
    $("nochart").hidden = values.length > 0;
    box.hidden = values.length === 0;
    if (!values.length) return;
    library.then(function (LC) {
      if (state.market === market) drawValues(LC, values, market);
    }, function () {
      $("nochart").hidden = false;
      $("nochart").textContent = t("no_library_chart");
    });
  }

  function sign(a) { return a.value.charAt(0) === "-" ? "down" : (/^0(\.0*)?$/.test(a.value) ? "" : "up"); }

  function term(dl, name, amount, id, signed) {
    var d = el("div"), dd = el("dd", amount.text, signed ? sign(amount) : "");
    dd.id = id;
    d.appendChild(el("dt", name));
    d.appendChild(dd);
    dl.appendChild(d);
  }

  function renderMarket(name) {
    var p = state.me.modules[name];
    state.market = name;
    Array.prototype.forEach.call($("tabs").children, function (b) {
      var on = b.dataset.market === name;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
    });
    $("market").setAttribute("aria-labelledby", "tab-" + name);
    $("start").hidden = p.found;
    $("start").textContent = p.found ? "" : t("no_portfolio", { Market: marketName(name).toLowerCase(), Command: p.start });
    var dl = $("summary");
    dl.textContent = "";
    if (p.found) {
      term(dl, t("total"), p.total, "total");
      term(dl, t("pl"), p.pl, "pl", true);
      term(dl, t("cash"), p.cash, "cash");
      term(dl, t("invested"), p.invested, "invested");
    }
    drawChart(p.values, name);
    var body = $("holdings").tBodies[0];
    body.textContent = "";
    state.tapped = null;
    closePrice();
    p.holdings.forEach(function (h) {
      var tr = el("tr");
      tr.dataset.symbol = h.symbol;
      var open = function () { openPrice(name, h.symbol, tr); };
      tr.addEventListener("click", open);
      var what = el("td"), b = el("button", h.qty_text + " " + h.unit);
      b.type = "button";
      b.setAttribute("aria-label", t("show_chart", { Holding: h.qty_text + " " + h.unit }));
      what.appendChild(b);
      what.appendChild(el("small", " " + (h.price_known ? "@ " + h.price.text : t("no_price")), "hint"));
      tr.appendChild(what);
      tr.appendChild(el("td", h.price_known ? h.value.text : "—"));
      tr.appendChild(el("td", h.price_known ? h.pl.text : "—", h.price_known ? sign(h.pl) : ""));
      body.appendChild(tr);
    });
    var ol = $("trades");
    ol.textContent = "";
    p.trades.forEach(function (x) {
      var what = x.kind === "topup" ? t("topup") : (x.kind === "buy" ? t("buy", { Qty: x.qty_text, Symbol: x.symbol }) : t("sell", { Qty: x.qty_text, Symbol: x.symbol }));
      var li = el("li"), left = el("span", what);
      left.appendChild(el("small", x.when + (x.price ? " @ " + x.price.text : "")));
      li.appendChild(left);
      li.appendChild(el("span", x.cash.text, sign(x.cash)));
      ol.appendChild(li);
    });
  }

  // Tabs as WAI-ARIA's pattern: arrows move between markets.
  function tabKeys(e) {
    var tabs = Array.prototype.slice.call($("tabs").children);
    var i = tabs.indexOf(document.activeElement), n = tabs.length;
    var j = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: n - 1 }[e.key];
    if (i < 0 || j === undefined) return;
    e.preventDefault();
    var to = tabs[(j + n) % n];
    to.focus();
    to.click();
  }

  function render(me) {
    state.me = me;
    if (me.lang !== state.lang) speak(me.lang);
    $("hello").textContent = me.user.first_name ? t("hello", { Name: me.user.first_name }) : t("title");
    var names = Object.keys(me.modules).sort();
    var nav = $("tabs");
    nav.textContent = "";
    names.forEach(function (n) {
      var b = el("button", marketName(n));
      b.type = "button";
      b.id = "tab-" + n;
      b.dataset.market = n;
      b.setAttribute("role", "tab");
      b.setAttribute("aria-controls", "market");
      b.addEventListener("click", function () { if (state.market !== n) { haptic("select"); renderMarket(n); } });
      nav.appendChild(b);
    });
    nav.onkeydown = tabKeys;
    // A refresh keeps the market shown; a first load opens the first found.
    var first = names.indexOf(state.market) >= 0 ? state.market : (names.filter(function (n) { return me.modules[n].found; })[0] || names[0]);
    show("app");
    if (first) renderMarket(first);
    if (startParam) loadBoards(names);
    // The frame that paints the figures: what docs/performance.md measures.
    requestAnimationFrame(function () { performance.mark("portfolio-painted"); });
  }

  // The boards of the group the app was opened from, one per market where
  // it has one and the user traded there, above the user's own figures.
  function loadBoards(names) {
    var box = $("boards");
    box.querySelectorAll(".board").forEach(function (b) { b.remove(); });
    var slots = {};
    names.forEach(function (n) {
      var s = el("section", undefined, "board");
      s.dataset.market = n;
      s.hidden = true;
      slots[n] = s;
      box.appendChild(s);
      request("api/" + n + "/board?chat=" + encodeURIComponent(startParam)).then(function (b) {
        if (!b || !b.rows || !b.rows.length) return;
        s.appendChild(el("h3", marketName(n)));
        var ol = el("ol");
        b.rows.forEach(function (row) {
          var li = el("li", undefined, row.you ? "you" : "");
          var who = el("span", row.rank + ". " + row.name);
          if (row.you) { who.appendChild(el("small", " " + t("you"))); li.setAttribute("aria-current", "true"); }
          li.appendChild(who);
          var fig = el("span", row.value.text);
          fig.appendChild(el("small", row.pl.text, sign(row.pl)));
          li.appendChild(fig);
          ol.appendChild(li);
        });
        s.appendChild(ol);
        s.hidden = false;
        box.hidden = false;
      }, function () {});
    });
  }

  function loadMe() {
    var asked = window.earlyMe && hash.get("tgWebAppData") === initData ? window.earlyMe : null;
    window.earlyMe = null;
    request("api/me", null, asked).then(render, function (e) {
      if (e.status === 401) { show("denied"); return; }
      var f = failure(e, "");
      $("why").textContent = f.text;
      $("again").hidden = !f.retry;
      show("failed");
    });
  }

  function start() {
    speak(state.lang);
    applyTheme(themeParams());
    $("back").addEventListener("click", function () { haptic("tap"); closePrice(); });
    $("retry").addEventListener("click", function () { if (state.retry) state.retry(); });
    $("again").addEventListener("click", function () { haptic("tap"); show("loading"); loadMe(); });
    if (tg) {
      tg.ready();
      tg.expand();
      tg.onEvent("themeChanged", function () { applyTheme(tg.themeParams); });
      if (tgHas("6.1")) tg.BackButton.onClick(closePrice);
      if (tg.MainButton && tg.MainButton.setParams) {
        tg.MainButton.setParams({ text: t("refresh"), is_visible: true });
        tg.MainButton.onClick(function () { haptic("tap"); loadMe(); });
      }
    }
    if (!initData) { show("denied"); return; }
    loadMe();
    state.loadLibrary();
  }

  window.miniApp = { applyTheme: applyTheme, state: state, renderMarket: renderMarket, config: config, contrast: look.contrast };
  start();
})();
