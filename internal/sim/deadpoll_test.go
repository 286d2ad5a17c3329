package sim

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// A call under way when its process dies never hears its answer: here a
// getUpdates waiting at Telegram, answered with an update pushed after
// the death. Heard, it would have the dead poller run a later step's
// update and take that step's fault, a history no seed decides.
func TestADeadProcessHearsNoAnswerOfACallUnderWay(t *testing.T) {
	l := newLife(t, Config{Seed: 1, Days: 1, PerDay: 10, Store: memory.New()})
	l.switchRuntime(rtLambda) // no poller of the life's own waits at Telegram
	p := l.serving(rtLambda)
	if err := post(l.fake.URL+"/bot"+l.fake.Token+"/deleteWebhook", `{}`); err != nil {
		t.Fatal(err)
	}
	c := &chat{id: l.world.owner, kind: private}
	u := l.ids.text(l.clk.Now(), c, 0, l.world.owner, "/help")
	answer := make(chan string, 1)
	go func() {
		body := fmt.Sprintf(`{"offset":%d,"timeout":50}`, u.ID)
		res, err := http.Post(l.front.url+"/p/"+p.name+"/bot"+l.fake.Token+"/getUpdates", "application/json", strings.NewReader(body))
		if err != nil {
			answer <- err.Error()
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		answer <- fmt.Sprintf("%d %s", res.StatusCode, b)
	}()
	if err := l.fake.WaitPolling(t.Context()); err != nil {
		t.Fatal(err)
	}
	p.kill()
	l.fake.Push(u)
	l.stopProcesses() // a held call fails now
	got := <-answer
	if !strings.HasPrefix(got, "502 ") {
		t.Errorf("the dead process heard its getUpdates answered: %s", got)
	}
}

func post(url, body string) error {
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	return res.Body.Close()
}
