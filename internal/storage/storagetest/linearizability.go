package storagetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// Workload shapes a recorded history: Clients goroutines each doing Ops
// random operations (Get, Put, CAS, CompareAndDelete) on Keys keys.
type Workload struct {
	Clients, Ops, Keys int
	Seed               uint64
	// InsertOnlyCAS makes every CAS expect the key to be absent, and makes
	// the conditional deletes such inserts too.
	InsertOnlyCAS bool
}

// DefaultWorkload is small enough to check in well under a second, large
// enough that lost or reordered writes show.
var DefaultWorkload = Workload{Clients: 6, Ops: 60, Keys: 3, Seed: 1}

type opKind uint8

const (
	opGet opKind = iota
	opPut
	opCAS
	opCAD
)

// kvInput is one call; expected is nil for "must be absent" CAS.
type kvInput struct {
	kind     opKind
	key      string
	value    string
	expected *string
}

// kvOutput is what the store answered.
type kvOutput struct {
	found   bool   // Get
	value   string // Get
	swapped bool   // CAS, and CAD: it deleted
}

// keyState is the sequential model's state of one key.
type keyState struct {
	present bool
	value   string
}

// kvModel is a sequential single-key store; the history is partitioned by key,
// which porcupine can check independently (P-compositionality).
var kvModel = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		var order []string
		for _, op := range history {
			k := op.Input.(kvInput).key
			if _, ok := byKey[k]; !ok {
				order = append(order, k)
			}
			byKey[k] = append(byKey[k], op)
		}
		parts := make([][]porcupine.Operation, 0, len(order))
		for _, k := range order {
			parts = append(parts, byKey[k])
		}
		return parts
	},
	Init: func() any { return keyState{} },
	Step: func(state, input, output any) (bool, any) {
		st, in, out := state.(keyState), input.(kvInput), output.(kvOutput)
		switch in.kind {
		case opGet:
			return out.found == st.present && (!out.found || out.value == st.value), st
		case opPut:
			return true, keyState{present: true, value: in.value}
		case opCAD:
			matches := st.present && *in.expected == st.value
			if out.swapped {
				return matches, keyState{}
			}
			return !matches, st
		default: // opCAS
			matches := (in.expected == nil && !st.present) ||
				(in.expected != nil && st.present && *in.expected == st.value)
			if out.swapped {
				return matches, keyState{present: true, value: in.value}
			}
			return !matches, st
		}
	},
	DescribeOperation: func(input, output any) string {
		in, out := input.(kvInput), output.(kvOutput)
		switch in.kind {
		case opGet:
			if !out.found {
				return fmt.Sprintf("get(%s) -> absent", in.key)
			}
			return fmt.Sprintf("get(%s) -> %s", in.key, out.value)
		case opPut:
			return fmt.Sprintf("put(%s, %s)", in.key, in.value)
		case opCAD:
			return fmt.Sprintf("cad(%s, %s) -> %v", in.key, *in.expected, out.swapped)
		default:
			exp := "absent"
			if in.expected != nil {
				exp = *in.expected
			}
			return fmt.Sprintf("cas(%s, %s -> %s) -> %v", in.key, exp, in.value, out.swapped)
		}
	},
}

// Record runs w against s and returns the timed history. Timestamps come from
// one shared counter taken just before each call and just after it returns,
// which orders operations exactly as real time does without reading a clock.
func Record(ctx context.Context, s storage.KVStore, w Workload) ([]porcupine.Operation, error) {
	var (
		clock   atomic.Int64
		mu      sync.Mutex
		history []porcupine.Operation
		wg      sync.WaitGroup
		errOnce sync.Once
		firstEr error
	)
	for c := range w.Clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(w.Seed, uint64(c)))
			seen := map[string]*string{} // the last value this client saw per key
			for i := range w.Ops {
				in := kvInput{key: fmt.Sprint("lin-", rng.IntN(w.Keys))}
				switch r := rng.IntN(10); {
				case r < 4:
					in.kind = opGet
				case r < 7:
					in.kind, in.value = opPut, fmt.Sprintf("c%d-%d", c, i)
				case r < 9 || w.InsertOnlyCAS:
					// Expect what this client last saw: often current,
					// sometimes stale, sometimes "absent".
					in.kind, in.value, in.expected = opCAS, fmt.Sprintf("c%d-%d", c, i), seen[in.key]
					if w.InsertOnlyCAS {
						in.expected = nil
					}
				default:
					// Delete what this client last saw; "" when it saw the
					// key absent (no value here is empty: it conflicts).
					var exp string
					if v := seen[in.key]; v != nil {
						exp = *v
					}
					in.kind, in.expected = opCAD, &exp
				}
				call := clock.Add(1)
				out, err := apply(ctx, s, in)
				ret := clock.Add(1)
				if err != nil {
					errOnce.Do(func() { firstEr = fmt.Errorf("client %d op %d (%+v): %w", c, i, in, err) })
					return
				}
				switch {
				case in.kind == opGet && out.found:
					v := out.value
					seen[in.key] = &v
				case in.kind == opGet, in.kind == opCAD && out.swapped:
					seen[in.key] = nil
				case in.kind == opPut || in.kind == opCAS && out.swapped:
					v := in.value
					seen[in.key] = &v
				}
				mu.Lock()
				history = append(history, porcupine.Operation{ClientId: c, Input: in, Call: call, Output: out, Return: ret})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return history, firstEr
}

func apply(ctx context.Context, s storage.KVStore, in kvInput) (kvOutput, error) {
	switch in.kind {
	case opGet:
		v, err := s.Get(ctx, in.key)
		if errors.Is(err, storage.ErrNotFound) {
			return kvOutput{}, nil
		}
		return kvOutput{found: err == nil, value: string(v)}, err
	case opPut:
		return kvOutput{}, s.Put(ctx, in.key, []byte(in.value))
	case opCAD:
		err := s.CompareAndDelete(ctx, in.key, []byte(*in.expected))
		if errors.Is(err, storage.ErrConflict) {
			return kvOutput{}, nil
		}
		return kvOutput{swapped: err == nil}, err
	default:
		var exp []byte
		if in.expected != nil {
			exp = []byte(*in.expected)
		}
		err := s.CompareAndSwap(ctx, in.key, exp, []byte(in.value))
		if errors.Is(err, storage.ErrConflict) {
			return kvOutput{}, nil
		}
		return kvOutput{swapped: err == nil}, err
	}
}

// Check reports whether history is linearizable against the sequential model.
func Check(history []porcupine.Operation) (porcupine.CheckResult, porcupine.LinearizationInfo) {
	return porcupine.CheckOperationsVerbose(kvModel, history, time.Minute)
}

// RequireLinearizable fails t when history is not linearizable, and leaves
// porcupine's visualisation of the history in the test's artifact directory.
func RequireLinearizable(t *testing.T, history []porcupine.Operation) {
	t.Helper()
	res, info := Check(history)
	if res == porcupine.Ok {
		return
	}
	path := filepath.Join(t.ArtifactDir(), "history.html")
	if err := porcupine.VisualizePath(kvModel, info, path); err != nil {
		t.Logf("visualising the history: %v", err)
	} else {
		t.Logf("history visualised at %s", path)
	}
	t.Fatalf("history of %d operations is not linearizable: %s", len(history), res)
}
