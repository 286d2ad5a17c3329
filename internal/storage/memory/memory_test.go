package memory_test

import (
	"context"
	"testing"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/memory"
	"github.com/miti99bot/miti99bot/internal/storage/storagetest"
)

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.KVProvider { return memory.New() })
}

func benchStore(b *testing.B) storage.KVStore {
	s := memory.New().For("bench")
	if err := s.Put(context.Background(), "k", make([]byte, 256)); err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkMemoryGet(b *testing.B) {
	s, ctx := benchStore(b), context.Background()
	for b.Loop() {
		if _, err := s.Get(ctx, "k"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMemoryPut(b *testing.B) {
	s, ctx, v := benchStore(b), context.Background(), make([]byte, 256)
	for b.Loop() {
		if err := s.Put(ctx, "k", v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMemoryCAS swaps between two values, each call expecting the other.
func BenchmarkMemoryCAS(b *testing.B) {
	s, ctx := benchStore(b), context.Background()
	vals := [2][]byte{make([]byte, 256), make([]byte, 256)}
	vals[1][0] = 1
	i := 0
	for b.Loop() {
		if err := s.CompareAndSwap(ctx, "k", vals[i], vals[1-i]); err != nil {
			b.Fatal(err)
		}
		i = 1 - i
	}
}
