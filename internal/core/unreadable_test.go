package core_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/apptest"
	"github.com/miti99bot/miti99bot/internal/modules/builtin"
	"github.com/miti99bot/miti99bot/internal/modules/stats"
	"github.com/miti99bot/miti99bot/internal/telegramtest"
)

// A stored value with a flipped byte fails every run that reads it the
// same way: the update is answered with an apology and acknowledged, not
// redelivered forever, and the log names the key once.
func TestAValueNoRunCanReadIsReportedOnceAndAnswered(t *testing.T) {
	b := apptest.New(t, builtin.Catalogue())
	b.MustSay(apptest.Group, apptest.User, "/ping")
	tally := b.Store.For(stats.Name)
	key := "u:" + strconv.FormatInt(apptest.User, 10)
	v, err := tally.Get(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	v[0] ^= 0x20 // '{' becomes '['
	if err := tally.Put(t.Context(), key, v); err != nil {
		t.Fatal(err)
	}
	u := telegramtest.Text(apptest.Group, apptest.Admin, "/stats")
	for delivery := range 2 {
		if err := b.Handle(u); err != nil {
			t.Fatalf("delivery %d of /stats over an unreadable tally: %v; want it answered and acknowledged", delivery+1, err)
		}
	}
	if got := b.Last(); !strings.Contains(got, "Sorry") {
		t.Errorf("the reply = %q, want the apology", got)
	}
	var reports int
	for _, line := range strings.Split(b.Logs.String(), "\n") {
		if strings.Contains(line, "cannot be read") && strings.Contains(line, `"level":"ERROR"`) {
			reports++
			if !strings.Contains(line, key) || !strings.Contains(line, stats.Name) {
				t.Errorf("the report does not name the module and key: %s", line)
			}
		}
	}
	if reports != 1 {
		t.Errorf("%d ERROR reports of the unreadable value, want 1:\n%s", reports, b.Logs.String())
	}
}
