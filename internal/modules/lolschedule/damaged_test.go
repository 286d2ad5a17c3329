package lolschedule_test

import (
	"context"
	"strings"
	"testing"

	"github.com/miti99bot/miti99bot/internal/cron"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
)

// One chat whose day's mark is damaged holds up no other: the push
// reaches the rest and counts as run (no retry can read the mark), and
// the damaged item is named in the log once.
func TestADamagedChatHoldsUpNoOtherChatsPush(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) storage.KVProvider{
		"memory":  func(*testing.T) storage.KVProvider { return memory.New() },
		"mongodb": func(t *testing.T) storage.KVProvider { return backendtest.Mongo(t) },
	} {
		t.Run(name, func(t *testing.T) {
			api := newFakeAPI(t)
			seed(api)
			e := newEnvOnStore(t, open(t), api, nil, nil)
			e.clk.Set(slot.Add(3e9))
			d := e.Dispatcher(e.clk.Now)
			e.subscribe(t, [2]int64{-1, 0}, [2]int64{-2, 7}, [2]int64{3, 0})
			const damaged = "sent:2026-11-25:-2:7"
			if err := e.Store.For("lolschedule").Put(context.Background(), damaged, []byte(`["state":"running","at":1}`)); err != nil {
				t.Fatal(err)
			}
			out, err := d.Dispatch(t.Context(), pushJob, slot)
			if err != nil || out != cron.Ran {
				t.Fatalf("Dispatch = %v, %v; want it run", out, err)
			}
			if got := e.digests(); len(got) != 2 || got[[2]int64{-1, 0}] != 1 || got[[2]int64{3, 0}] != 1 {
				t.Errorf("digests per subscriber: %v, want the two undamaged chats", got)
			}
			var named int
			for _, line := range strings.Split(e.Logs.String(), "\n") {
				if strings.Contains(line, `"level":"ERROR"`) && strings.Contains(line, `"key":"`+damaged+`"`) && strings.Contains(line, `"namespace":"lolschedule"`) {
					named++
				}
			}
			if named != 1 {
				t.Errorf("%d ERROR lines name the damaged mark, want 1:\n%s", named, e.Logs.String())
			}
		})
	}
}
