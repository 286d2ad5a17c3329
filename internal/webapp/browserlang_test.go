package webapp_test

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/miti99bot/miti99bot/internal/locale"
	"github.com/miti99bot/miti99bot/internal/webapp"
	"github.com/miti99bot/miti99bot/internal/webapp/initdata"
)

// A Vietnamese viewer (their client's language_code vi) reads the page,
// its labels, its figures and its charts' axes in Vietnamese: not one of
// the page's English texts, money as 1.234,56 $ and times as 07/12/2026
// 08:00, as the bot's replies write them.
func TestAVietnameseViewerReadsNoEnglish(t *testing.T) {
	bt := startBot(t)
	bt.sayIn(t, group, trader, traderName, "/coin_topup 10000")
	for _, cmd := range []string{"/coin_buy BTC 1000", "/coin_buy ETH 500"} {
		bt.say(t, cmd)
	}
	bt.seedValues(t, 24)
	vals := url.Values{"auth_date": {fmt.Sprint(time.Now().Add(-time.Minute).Unix())}, "start_param": {fmt.Sprint(group)}, "chat_type": {"supergroup"},
		"user": {fmt.Sprintf(`{"id":%d,"first_name":%q,"language_code":"vi"}`, trader, traderName)}}
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(bt.link(initdata.Sign(bt.tg.Token, vals), lightTheme)), chromedp.WaitVisible(chromedp.ID("total")),
		chromedp.WaitVisible(chromedp.CSS(`.board[data-market="coin"]`))); err != nil {
		t.Fatalf("the page did not show a portfolio: %v", err)
	}
	if err := poll(ctx, `document.querySelectorAll('#chart canvas').length > 0`); err != nil {
		t.Fatalf("no value chart: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#holdings tr[data-symbol="BTC"]`)), chromedp.WaitVisible(chromedp.ID("pricechart"))); err != nil {
		t.Fatalf("no price chart: %v", err)
	}
	if err := poll(ctx, `!!miniApp.state.priceSeries && document.getElementById("pricestatus").hidden`); err != nil {
		t.Fatalf("the price chart was not drawn: %v", err)
	}
	type seen struct {
		Lang, Text, Total, When, Qty string
		Axis, Labels                 []string
	}
	page, err := chromedp.Run(ctx, chromedp.Evaluate[seen](`({lang: document.documentElement.lang, text: document.body.innerText + "\n" + document.title,
		total: document.getElementById("total").textContent, when: document.querySelector("#trades small").textContent,
		qty: document.querySelector('#holdings tr[data-symbol="BTC"] button').textContent,
		axis: [999.5, 1234567.5].map(v => miniApp.state.chart.options().localization.priceFormatter(v)),
		labels: [...document.querySelectorAll("[aria-label]")].map(e => e.getAttribute("aria-label"))})`))
	if err != nil {
		t.Fatal(err)
	}
	shot(t, ctx, "miniapp-vi.png")
	if page.Lang != "vi" {
		t.Errorf("the page's lang is %q, want vi", page.Lang)
	}
	read := page.Text + "\n" + strings.Join(page.Labels, "\n")
	for _, key := range webapp.PageTexts.Keys(locale.English) {
		en := webapp.PageTexts.Text(locale.English, key, nil)
		if words := regexp.MustCompile(`[A-Za-z]{3,}(?: [A-Za-z]{2,})*`).FindAllString(en, -1); en != webapp.PageTexts.Text(locale.Vietnamese, key, nil) {
			for _, w := range words {
				if strings.Contains(w, " ") && strings.Contains(read, w) {
					t.Errorf("a Vietnamese viewer reads the English %q (of %s)", w, key)
				}
			}
		}
	}
	for _, w := range []string{"Portfolio", "Holdings", "Latest trades", "Total", "Cash", "Invested", "Buy", "Top-up", "Price", "Back", "(you)"} {
		if slices.Contains(strings.Fields(strings.NewReplacer("(", " ", ")", " ", ":", " ").Replace(read)), w) || strings.Contains(read, w+" ") {
			t.Errorf("a Vietnamese viewer reads the English %q:\n%s", w, read)
		}
	}
	if !regexp.MustCompile(`^[\d.]+,\d{2}\x{a0}\$$`).MatchString(page.Total) {
		t.Errorf("the total reads %q, want Vietnamese money (1.234,56 $)", page.Total)
	}
	if !regexp.MustCompile(`^0,\d+ BTC$`).MatchString(page.Qty) {
		t.Errorf("a holding reads %q, want its quantity with a decimal comma (0,0103 BTC)", page.Qty)
	}
	if !regexp.MustCompile(`^\d{2}/\d{2}/\d{4} \d{2}:\d{2}`).MatchString(page.When) {
		t.Errorf("a trade's time reads %q, want 07/12/2026 08:00", page.When)
	}
	if want := []string{"999,50", "1,23 tr"}; !slices.Equal(page.Axis, want) {
		t.Errorf("the chart's axis writes 999.5 and 1234567.5 as %q, want %q", page.Axis, want)
	}

	// Refused (its signature altered), the page still speaks the client's
	// language: the bot has not said whose it is.
	vals.Set("auth_date", fmt.Sprint(time.Now().Unix()))
	forged := initdata.Sign("999:forged-token", vals)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(bt.link(forged, lightTheme)), chromedp.WaitVisible(chromedp.ID("denied"))); err != nil {
		t.Fatalf("the 401 page did not show: %v", err)
	}
	why, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("deniedwhy")))
	if err != nil {
		t.Fatal(err)
	}
	if want := webapp.PageTexts.Text(locale.Vietnamese, "page.denied", nil); why != want {
		t.Errorf("a Vietnamese client refused reads %q, want %q", why, want)
	}
}
