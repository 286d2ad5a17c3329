package webapp_test

import (
	"context"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/core"
)

// An answer that cannot be written as JSON (a value past float64, as a
// portfolio at an absurd price once gave) is the route's failure: logged
// and answered 500, never a 200 with an empty body.
func TestAnAnswerThatCannotBeEncodedIsA500ThatIsLogged(t *testing.T) {
	inf := core.WebRoute{Module: "coin", WebRoute: app.WebRoute{Name: app.WebMe, Handler: func(context.Context, *app.WebRequest) (any, error) {
		return map[string]float64{"value": math.Inf(1)}, nil
	}}}
	f := newFixture(t, inf)
	for _, path := range []string{"/app/api/me", "/app/api/coin/me"} {
		w := f.get(path, "tma "+signed(token, 42, now))
		if w.Code != http.StatusInternalServerError || w.Body.Len() != 0 {
			t.Errorf("%s: %d %q; want 500 with no body", path, w.Code, w.Body)
		}
	}
	if logs := f.logs.String(); strings.Count(logs, "level=ERROR") != 2 || !strings.Contains(logs, "unsupported value") {
		t.Errorf("logs %s; want each failure logged at ERROR with its cause", logs)
	}
}
