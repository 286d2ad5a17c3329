package bolt

// WithBboltsMap opens with bbolt's own first memory map (the file's size,
// doubling as it grows), as Open did before initialMap: the benchmark's
// comparison.
func WithBboltsMap() Option { return func(o *options) { o.mapSize = 0 } }
