package emf_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/miti99bot/miti99bot/internal/logging"
	"github.com/miti99bot/miti99bot/internal/metrics"
	"github.com/miti99bot/miti99bot/internal/metrics/emf"
	"github.com/miti99bot/miti99bot/internal/metrics/emf/emftest"
)

func TestAFlushIsOneEMFLineWithEverySeriesOfTheInvocation(t *testing.T) {
	var out bytes.Buffer
	// LOG_LEVEL=error must not hide metrics.
	log := logging.New(&out, slog.LevelError, []string{"s3cret"})
	sink := emf.New("miti99bot", map[string]string{"function": "bot"})
	m := metrics.New(sink)
	m.Update("message", metrics.Handled)
	m.Update("message", metrics.Handled)
	m.Handling("/ping", 30*time.Millisecond)
	m.Handling("/ping", 10*time.Millisecond)
	m.BotAPI("sendMessage", metrics.Flood, 3*time.Second)
	m.Init(120 * time.Millisecond)
	sink.Flush(t.Context(), log)
	sink.Flush(t.Context(), log) // nothing new: nothing written

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines, want 1:\n%s", len(lines), out.String())
	}
	values, err := emftest.Check([]byte(lines[0]))
	if err != nil {
		t.Fatalf("not EMF: %v\n%s", err, lines[0])
	}
	want := map[string][]float64{
		"updates.message.handled":               {2},
		"update_duration_seconds./ping":         {0.03, 0.01},
		"botapi_calls.sendMessage.flood":        {1},
		"botapi_flood_wait_seconds.sendMessage": {3},
		"init_duration_seconds":                 {0.12},
	}
	for name, w := range want {
		if got := values[name]; len(got) != len(w) || got[0] != w[0] {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	if !strings.Contains(lines[0], `"level":"METRICS"`) || !strings.Contains(lines[0], `"function":"bot"`) {
		t.Errorf("line %s: want level METRICS and the function dimension", lines[0])
	}
}

func TestManySeriesSplitIntoObjectsOfAtMostAHundred(t *testing.T) {
	var out bytes.Buffer
	sink := emf.New("miti99bot", map[string]string{"function": "bot"})
	m := metrics.New(sink)
	for i := range 150 {
		m.Cron(strings.Repeat("j", 1+i%150)+"x", metrics.Ran)
	}
	sink.Flush(t.Context(), logging.New(&out, slog.LevelInfo, nil))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2", len(lines))
	}
	total := 0
	for _, l := range lines {
		values, err := emftest.Check([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		total += len(values)
	}
	if total != 150 {
		t.Fatalf("%d series written, want 150", total)
	}
}
