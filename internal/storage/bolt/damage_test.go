package bolt_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/bolt"
)

// healthy is a store of two namespaces of 1500 items each (branch pages
// above their leaves), its bytes, and where its pages are.
type healthy struct {
	file     []byte
	pageSize int
	types    map[int]string // page id -> bbolt's type ("leaf", "branch", "free", ...)
}

func newHealthy(t *testing.T) healthy {
	t.Helper()
	path := filepath.Join(t.TempDir(), "healthy.db")
	p := open(t, path)
	var items []storage.Item
	for _, ns := range []string{"a", "b"} {
		for i := range 1500 {
			val := bytes.Repeat([]byte{byte('a' + i%26)}, 100)
			items = append(items, storage.Item{Namespace: ns, Key: fmt.Sprintf("k%05d", i), Value: val, UpdatedAt: int64(i)})
		}
	}
	if _, err := p.Load(t.Context(), items, storage.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	h := healthy{types: map[int]string{}}
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h.pageSize = db.Info().PageSize
	err = db.View(func(tx *bbolt.Tx) error {
		for id := 0; ; id++ {
			info, err := tx.Page(id)
			if info == nil || err != nil {
				return err
			}
			h.types[id] = info.Type
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if h.file, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	return h
}

// page is the first page of type typ, or, with a key, the leaf holding it.
func (h healthy) page(t *testing.T, typ, key string) int {
	t.Helper()
	for off := 0; key != ""; off++ {
		i := bytes.Index(h.file[off:], []byte(key))
		if i < 0 {
			break
		}
		if off += i; h.types[off/h.pageSize] == typ {
			return off / h.pageSize
		}
	}
	for id := 2; key == "" && id < len(h.types); id++ {
		if h.types[id] == typ {
			return id
		}
	}
	t.Fatalf("no %s page (key %q)", typ, key)
	return 0
}

// garbage writes seeded random bytes over the first page of type typ.
func (h healthy) garbage(t *testing.T, f []byte, typ string, seed uint64) {
	t.Helper()
	id := h.page(t, typ, "")
	rand.NewChaCha8([32]byte{byte(seed)}).Read(f[id*h.pageSize : (id+1)*h.pageSize])
}

// xor32 flips bits of the uint32 at off, written as bbolt writes it.
func xor32(f []byte, off int, bits uint32) {
	binary.NativeEndian.PutUint32(f[off:], binary.NativeEndian.Uint32(f[off:])^bits)
}

// Each kind of damage the issue saw crash or mislead the bot is refused at
// Open with an error naming the file and the remedy, in a child process
// so that a crash fails the case instead of the test binary.
func TestADamagedFileIsRefusedAtOpenNamingItsPath(t *testing.T) {
	h := newHealthy(t)
	const header, element = 16, 16 // a page's header; a leaf element: flags, pos, ksize, vsize
	cases := []struct {
		name   string
		damage func(t *testing.T, f []byte) []byte
		want   string
	}{
		// Half its pages: bbolt grows the file ahead of them, so half the file may hold them all.
		{"a file cut short of its last commit is damaged", func(_ *testing.T, f []byte) []byte { return f[:len(h.types)*h.pageSize/2] }, "damaged"},
		{"a file cut inside its first page is damaged", func(_ *testing.T, f []byte) []byte { return f[:100] }, "damaged"},
		{"a file of 0 bytes is refused as empty", func(_ *testing.T, f []byte) []byte { return f[:0] }, "empty"},
		{"garbage over both meta pages is damaged", func(_ *testing.T, f []byte) []byte {
			rand.NewChaCha8([32]byte{1}).Read(f[:2*h.pageSize])
			return f
		}, "damaged"},
		{"garbage over a leaf page is damaged", func(t *testing.T, f []byte) []byte { h.garbage(t, f, "leaf", 2); return f }, "damaged"},
		{"garbage over a branch page is damaged", func(t *testing.T, f []byte) []byte { h.garbage(t, f, "branch", 3); return f }, "damaged"},
		{"garbage over the freelist page is damaged", func(t *testing.T, f []byte) []byte { h.garbage(t, f, "freelist", 4); return f }, "damaged"},
		{"a flipped bit in a key is damaged", func(t *testing.T, f []byte) []byte {
			leaf := h.page(t, "leaf", "k00700") * h.pageSize
			f[leaf+bytes.Index(f[leaf:], []byte("k00700"))] ^= 0x80
			return f
		}, "damaged"},
		{"a flipped bit in a value's length is damaged", func(t *testing.T, f []byte) []byte {
			xor32(f, h.page(t, "leaf", "k00700")*h.pageSize+header+12, 1<<24)
			return f
		}, "damaged"},
		{"a flipped bit in a key's offset is damaged", func(t *testing.T, f []byte) []byte {
			xor32(f, h.page(t, "leaf", "k00700")*h.pageSize+header+element+4, 1<<20)
			return f
		}, "damaged"},
		{"a flipped bit in a page's id is damaged", func(t *testing.T, f []byte) []byte {
			f[h.page(t, "leaf", "k00700")*h.pageSize] ^= 1
			return f
		}, "damaged"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			if err := os.WriteFile(path, c.damage(t, bytes.Clone(h.file)), 0o600); err != nil {
				t.Fatal(err)
			}
			got := openInChild(t, filepath.Dir(path), 1)[0]
			t.Log(got.msg)
			if got.class != c.want || !strings.Contains(got.msg, path) || !strings.Contains(got.msg, "restore") {
				t.Fatalf("Open = %s %q; want %s, naming the path and the remedy", got.class, got.msg, c.want)
			}
		})
	}
}

// Bytes flipped anywhere in the file, garbage over any page, or the file
// cut anywhere either leave a store that opens and reads whole (a flip
// inside a value or a free page, which no check can see) or are refused as
// damaged: never a crash.
func TestNoFlipOrCutMakesOpenCrash(t *testing.T) {
	h := newHealthy(t)
	dir := t.TempDir()
	const n = 100
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 99))
		f := bytes.Clone(h.file)
		switch seed % 4 {
		case 3:
			f = f[:2*h.pageSize+r.IntN(len(f)-2*h.pageSize)]
		case 2:
			id := r.IntN(len(f) / h.pageSize)
			rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)}).Read(f[id*h.pageSize : (id+1)*h.pageSize])
		default:
			for range 1 + r.IntN(16) {
				f[r.IntN(len(f))] ^= byte(1 << r.IntN(8))
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("seed%04d.db", seed))
		if err := os.WriteFile(path, f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	opened := 0
	for _, got := range openInChild(t, dir, n) {
		switch got.class {
		case "ok":
			opened++
		case "damaged":
		default:
			t.Errorf("%s: %s %q; want it opened or refused as damaged", got.path, got.class, got.msg)
		}
	}
	t.Logf("%d of %d opened, the rest refused as damaged", opened, n)
}

func TestAnEmptyFileBecomesANewStoreOnlyWhenAskedTo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := bolt.Open(path); !errors.Is(err, bolt.ErrEmpty) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open of a 0-byte file = %v, want ErrEmpty naming it", err)
	}
	p, err := bolt.Open(path, bolt.CreateIfEmpty())
	if err != nil {
		t.Fatalf("Open(CreateIfEmpty) = %v", err)
	}
	defer p.Close(t.Context())
	if err := p.For("m").Put(t.Context(), "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
}
