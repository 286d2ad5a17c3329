# miti99bot: one bot, two runtimes (AWS Lambda, container), one key-value store.
GO ?= go

.PHONY: test vet unit bench
## test: vet, then every test with the race detector
test: vet unit

vet:
	$(GO) vet ./...

unit:
	$(GO) test -race -count=1 ./...

## bench: the storage benchmarks, with allocations
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/storage/...
