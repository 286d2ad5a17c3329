package sim

import (
	"fmt"
	goruntime "runtime"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// fatalTB is the test's TB, but a Fatal only ends the goroutine that calls
// it, as testing.T's does, and is handed to the test to read.
type fatalTB struct {
	testing.TB
	fatal chan string
}

func (tb *fatalTB) Helper() {}

func (tb *fatalTB) Fatal(args ...any) {
	tb.fatal <- fmt.Sprint(args...)
	goruntime.Goexit()
}

func (tb *fatalTB) Fatalf(format string, args ...any) { tb.Fatal(fmt.Sprintf(format, args...)) }

// A delivery whose run ends without an answer (a t.Fatal inside it: here
// the second process an at-once fault starts cannot be built) ends its
// process, so the life sees a death instead of waiting for an answer that
// never comes.
func TestARunEndedWithoutAnAnswerEndsItsProcess(t *testing.T) {
	tb := &fatalTB{TB: t, fatal: make(chan string, 1)}
	l := newLife(tb, Config{Seed: 1, Days: 1, PerDay: 10, Store: memory.New()})
	l.switchRuntime(rtLambda)
	p := l.serving(rtLambda)
	l.settings["OWNER_ID"] = "nobody" // no process starts from here on
	c := &chat{id: l.world.owner, kind: private}
	u := l.ids.text(l.clk.Now(), c, 0, l.world.owner, "/help")
	l.current = u // what an at-once fault delivers again
	died := make(chan bool, 1)
	go func() {
		_, d := p.deliver(u, &fault{kind: atOnce, where: "core", k: 1})
		died <- d
	}()
	t.Logf("the second process's start: %s", <-tb.fatal)
	l.running.Wait() // the run has ended
	select {
	case <-p.died:
	default:
		t.Fatal("the run ended without an answer and its process lives: the delivery waits for ever")
	}
	if !<-died {
		t.Error("deliver did not report the process dead")
	}
}
