package bolt

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/miti99bot/miti99bot/internal/storage"
)

// BenchmarkOpenChecks prices each check Open makes, on a file of 100,000
// items of 200 bytes in 10 namespaces (a bot with far more users than
// this one has), against a bare bbolt.Open:
//
//	go test -run='^$' -bench=OpenChecks -benchtime=10x ./internal/storage/bolt/
func BenchmarkOpenChecks(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bot.db")
	fill(b, path, 100_000, 200)
	view := func(b *testing.B, fn func(*bbolt.Tx) error) {
		db, err := bbolt.Open(path, 0o600, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		for b.Loop() {
			if err := db.View(fn); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("bbolt.Open alone", func(b *testing.B) {
		for b.Loop() {
			db, err := bbolt.Open(path, 0o600, nil)
			if err != nil {
				b.Fatal(err)
			}
			db.Close()
		}
	})
	b.Run("meta and pages, from the file", func(b *testing.B) {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		fi, _ := f.Stat()
		for b.Loop() {
			if err := checkFile(f, fi.Size()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(fi.Size())/1e6, "file-MB") // after the loop, which resets metrics
	})
	b.Run("every item", func(b *testing.B) { view(b, readItems) })
	b.Run("bbolt's check", func(b *testing.B) { view(b, check) })
	b.Run("Open, all checks", func(b *testing.B) {
		for b.Loop() {
			p, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			p.Close(b.Context())
		}
	})
}

// fill writes n items of size bytes into path, 1000 to a transaction.
func fill(tb testing.TB, path string, n, size int) {
	tb.Helper()
	p, err := Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer p.Close(tb.Context())
	val := make([]byte, size)
	for start := 0; start < n; start += 1000 {
		var batch []storage.Item
		for i := start; i < min(n, start+1000); i++ {
			batch = append(batch, storage.Item{
				Namespace: fmt.Sprintf("module%d", i%10),
				Key:       fmt.Sprintf("user:%09d", i*7919%1_000_000_007),
				Value:     val, UpdatedAt: int64(i),
			})
		}
		if _, err := p.Load(tb.Context(), batch, storage.LoadOptions{Overwrite: true}); err != nil {
			tb.Fatal(err)
		}
	}
}
