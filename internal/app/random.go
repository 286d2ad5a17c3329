package app

import (
	"math/rand/v2"
	"sync"
)

// Random is where a module draws its random choices (a game's word, its
// ID): the engine's source when it gives one, which a simulation seeds so
// that a seed replays byte for byte, else the process's own. Safe for
// concurrent use either way.
func (d Deps) Random() *rand.Rand {
	if d.Rand != nil {
		return d.Rand
	}
	return rand.New(processSource{})
}

// processSource is math/rand/v2's global source: safe for concurrent use.
type processSource struct{}

func (processSource) Uint64() uint64 { return rand.Uint64() }

// LockedRand is a *rand.Rand over src safe for concurrent use: a Rand
// keeps no state but its source, and the source is locked.
func LockedRand(src rand.Source) *rand.Rand { return rand.New(&lockedSource{src: src}) }

type lockedSource struct {
	mu  sync.Mutex
	src rand.Source
}

func (s *lockedSource) Uint64() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.src.Uint64()
}
