package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/go-telegram/bot/models"

	"github.com/miti99bot/miti99bot/internal/lambdaevent"
)

// A stretch of the life is served by one runtime, drawn from the seed: a
// switch is a deploy of the other one (the container's modes restart it;
// a warm Lambda environment stays).
const switchOdds = 150 // one act in this many first switches

// maybeSwitch draws whether the runtime changes before the next act.
func (l *life) maybeSwitch() {
	if l.rf.IntN(switchOdds) == 0 {
		l.switchRuntime(runtime(l.rf.IntN(int(nRuntimes))))
	}
}

// switchRuntime makes rt serve from now on. A poller stops when its stretch
// ends: what it confirmed to Telegram it handled (the life waits for every
// update), so nothing is parked behind it.
func (l *life) switchRuntime(rt runtime) {
	if rt == l.rt && l.live[rt] != nil {
		return
	}
	if old := l.live[rtPoller]; old != nil && rt != rtPoller {
		old.stop()
		<-old.ran
		l.live[rtPoller] = nil
		l.confirmAll()
	}
	if rt == rtPoller {
		l.live[rtWebhook] = nil // the container restarts in the other mode
	}
	l.rt = rt
	l.serving(rt)
	l.hist.line("runtime %s", rt)
	l.hist.count("switches", 1)
}

// confirmAll is the getUpdates a stopped poller would have made next: it
// confirms every update, all handled, so that no later poller meets one
// again (as a duplicate at best, at a time no step of the life owns).
func (l *life) confirmAll() {
	body := fmt.Sprintf(`{"offset":%d,"timeout":0}`, l.ids.update+1)
	res, err := http.Post(l.fake.URL+"/bot"+l.fake.Token+"/getUpdates", "application/json", strings.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	_ = res.Body.Close()
}

// serving is the live process of rt, started if there is none.
func (l *life) serving(rt runtime) *proc {
	if p := l.live[rt]; p != nil && !p.dead.Load() {
		return p
	}
	l.live[rt] = l.newProc(rt)
	return l.live[rt]
}

// serve hands d to the bot, by the runtime of the stretch, until it is
// handled or Telegram gives up. A redelivery in a polling stretch comes by
// the webhook: Telegram redelivers to the other runtime of a cutover.
func (l *life) serve(d *delivery) bool {
	f := l.pickFault(d)
	if f == nil {
		f = l.pickWindowKill(d)
	}
	l.lastFault = f
	rt := l.rt
	if rt == rtPoller && d.again {
		rt = rtWebhook
	}
	if f != nil && rt == rtPoller && f.where == "telegram" {
		// A poller may run an update Telegram had again beside this one,
		// and the Bot API calls name no update: count the claim's instead.
		f.where, f.k = "core", 1
	}
	if f != nil {
		l.hist.line("  fault %s at %s #%d", f.kind, f.where, f.k)
	}
	l.hist.count("updates-"+rt.String(), 1)
	var handled bool
	if rt == rtPoller {
		handled = l.poll(d, f)
	} else {
		handled = l.post(d, rt, f)
	}
	if f != nil {
		l.hist.line("  fault fired=%t", f.didFire())
		if f.didFire() {
			l.hist.count("fault-"+f.kind.String(), 1)
		}
	}
	return handled
}

// post is Telegram posting d to rt's webhook until it is answered 200, at
// most maxDeliveries times, a minute apart; f is the first attempt's fault.
func (l *life) post(d *delivery, rt runtime, f *fault) bool {
	for attempt := 1; attempt <= maxDeliveries; attempt++ {
		if attempt > 1 {
			l.hist.count("redeliveries", 1)
			l.clk.Add(time.Minute)
			f = nil
		}
		p := l.serving(rt)
		l.store.SetDown(l.outageNow())
		ok, died := p.deliver(d.u, f)
		l.store.SetDown(false)
		if died {
			l.crashed(p, attempt)
			continue
		}
		l.hist.line("  attempt %d %s handled=%t", attempt, rt, ok)
		if ok {
			return true
		}
	}
	return false
}

// outageNow says whether this attempt finds the store down (the life's
// outages last a few attempts).
func (l *life) outageNow() bool {
	if l.outage == 0 {
		return false
	}
	l.outage--
	l.hist.count("store-down-attempts", 1)
	return true
}

// deliver is one webhook delivery of u to p: its answer was a 200, or p
// died on it (no answer ever comes).
func (p *proc) deliver(u *models.Update, f *fault) (ok, died bool) {
	done := make(chan bool, 1)
	p.tg.Store(f)
	p.l.running.Go(func() {
		p.run(func() {
			ctx := withFault(context.Background(), f)
			if p.kind == rtLambda {
				done <- p.invoke(ctx, u)
			} else {
				done <- p.post(ctx, u)
			}
		})
	})
	select {
	case ok = <-done:
		p.tg.Store(nil)
		return ok, false
	case <-p.died:
		return false, true
	}
}

// post is the container's webhook: Telegram's POST, secret header and all.
func (p *proc) post(ctx context.Context, u *models.Update) bool {
	body, _ := json.Marshal(u)
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/webhook", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Telegram-Bot-Api-Secret-Token", webhookSecret)
	rec := httptest.NewRecorder()
	p.http.ServeHTTP(rec, req)
	return rec.Code == http.StatusOK
}

// invoke is the Lambda runtime handing the function the Function URL
// event of Telegram's POST.
func (p *proc) invoke(ctx context.Context, u *models.Update) bool {
	body, _ := json.Marshal(u)
	ev := events.LambdaFunctionURLRequest{
		Version: "2.0", RawPath: "/webhook", Body: string(body),
		Headers: map[string]string{"content-type": "application/json", "x-telegram-bot-api-secret-token": webhookSecret},
		RequestContext: events.LambdaFunctionURLRequestContext{DomainName: "sim.lambda-url.ap-southeast-1.on.aws",
			HTTP: events.LambdaFunctionURLRequestContextHTTPDescription{Method: http.MethodPost, Path: "/webhook", SourceIP: "91.108.6.1"}},
	}
	raw, _ := json.Marshal(ev)
	out, err := p.lambda.Invoke(ctx, raw)
	res, _ := out.(events.LambdaFunctionURLResponse)
	return err == nil && res.StatusCode == http.StatusOK
}

// dispatch fires a cron job by the runtime of the stretch: EventBridge
// invoking the Lambda, or the container's in-process scheduler.
func (l *life) dispatch(name string, slot time.Time) (string, error) {
	p := l.serving(l.rt)
	if p.kind != rtLambda {
		out, err := p.disp.Dispatch(context.Background(), name, slot)
		return string(out), err
	}
	raw, _ := json.Marshal(lambdaevent.SchedulerEvent{Cron: name, ScheduledTime: slot.Format(time.RFC3339)})
	out, err := p.lambda.Invoke(context.Background(), raw)
	res, _ := out.(lambdaevent.CronResult)
	return string(res.Outcome), err
}

// alsoServe is Telegram delivering the update p runs to another process
// at once (a redelivery to the other runtime, or to a second replica),
// while p waits before its next store call; that delivery runs to its end.
func (l *life) alsoServe(p *proc) {
	u := l.current
	if u == nil {
		return
	}
	rt := rtLambda
	if p.kind == rtLambda {
		rt = rtWebhook
	}
	other := l.replica(rt)
	ok, _ := other.deliver(u, nil)
	l.hist.line("  at once: %s handled=%t", rt, ok)
	l.hist.count("at-once", 1)
}

// replica is a second live process of rt, beside the one that serves.
func (l *life) replica(rt runtime) *proc {
	if p := l.replicas[rt]; p != nil {
		return p
	}
	l.replicas[rt] = l.newProc(rt)
	return l.replicas[rt]
}
