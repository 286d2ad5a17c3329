package app

import "slices"

// CountOnce notes id in seen, the ids a module counted last (at most
// keep), and reports whether it is new there, to be counted now. A count
// may be told twice (its write landed, its caller heard a timeout, and the
// core or a redelivery ran it again): kept with what it counts, the ids
// make it count once. Id 0 (unknown) is always new.
func CountOnce(seen []int64, id int64, keep int) ([]int64, bool) {
	switch {
	case id == 0:
		return seen, true
	case slices.Contains(seen, id):
		return seen, false
	}
	seen = append(seen, id)
	return seen[max(0, len(seen)-keep):], true
}
