package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsddb "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/miti99bot/miti99bot/internal/migrate"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/storage/dynamodb"
)

// peakHeap samples the heap while f runs and returns the highest value.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	})
	f()
	close(stop)
	wg.Wait()
	return peak.Load()
}

// BenchmarkMigrate100k moves 100,000 items from dynalite to FerretDB with
// the migrator, next to the plainest possible copy (Scan pages straight
// into InsertMany) in the same run. Run it with:
//
//	scripts/with-testservers go test -run '^$' -bench Migrate100k -benchtime 1x ./cmd/migrate/
func BenchmarkMigrate100k(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	src := backendtest.Dynamo(b)
	// Seed with plain BatchWriteItem (no read-back): only the copy is measured.
	var writes []types.WriteRequest
	for i := range n {
		it := storage.Item{Namespace: fmt.Sprintf("mod%d", i%8), Key: fmt.Sprintf("key:%07d", i), Value: []byte(fmt.Sprintf(`{"n":%d,"pad":"%050d"}`, i, i)), UpdatedAt: int64(i)}
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: dynamodb.Encode(it)}})
		if len(writes) == 25 || i == n-1 {
			req := map[string][]types.WriteRequest{src.Table(): writes}
			for len(req[src.Table()]) > 0 {
				out, err := src.Client().BatchWriteItem(ctx, &awsddb.BatchWriteItemInput{RequestItems: req})
				if err != nil {
					b.Fatal(err)
				}
				req = out.UnprocessedItems
			}
			writes = writes[:0]
		}
	}

	copyOnce := func() int {
		rep, err := migrate.Copy(ctx, src, backendtest.Mongo(b), migrate.Options{SkipInvalid: true})
		if err != nil {
			b.Fatal(err)
		}
		return int(rep.Written)
	}
	rawOnce := func() int {
		dst, written := backendtest.Mongo(b), 0
		pages := awsddb.NewScanPaginator(src.Client(), &awsddb.ScanInput{TableName: aws.String(src.Table())})
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				b.Fatal(err)
			}
			byNS := map[string][]any{}
			for _, raw := range page.Items {
				it, err := dynamodb.Decode(raw)
				if err != nil {
					b.Fatal(err)
				}
				byNS[it.Namespace] = append(byNS[it.Namespace], bson.D{{Key: "_id", Value: it.Key}, {Key: "value", Value: bson.Binary{Data: it.Value}}, {Key: "updatedAt", Value: it.UpdatedAt}})
			}
			for ns, docs := range byNS {
				if _, err := dst.Database().Collection(ns).InsertMany(ctx, docs, options.InsertMany().SetOrdered(false)); err != nil && !mongo.IsDuplicateKeyError(err) {
					b.Fatal(err)
				}
				written += len(docs)
			}
		}
		return written
	}
	// The two copies alternate (which goes first flips each round), so the
	// servers' drift (dynalite still digesting the seed, FerretDB's cache)
	// weighs on both alike.
	type side struct {
		items   int
		elapsed time.Duration
		peak    uint64
	}
	var ours, raw side
	run := func(sd *side, f func() int) {
		start := time.Now()
		peak := peakHeap(func() { sd.items += f() })
		sd.elapsed += time.Since(start)
		sd.peak = max(sd.peak, peak)
	}
	round := 0
	for b.Loop() {
		if round%2 == 0 {
			run(&ours, copyOnce)
			run(&raw, rawOnce)
		} else {
			run(&raw, rawOnce)
			run(&ours, copyOnce)
		}
		round++
	}
	rate := func(sd side) float64 { return float64(sd.items) / sd.elapsed.Seconds() }
	b.ReportMetric(rate(ours), "migrate-items/s")
	b.ReportMetric(rate(raw), "raw-items/s")
	b.ReportMetric(rate(ours)/rate(raw), "ratio")
	b.ReportMetric(float64(ours.peak)/(1<<20), "migrate-peak-heap-MiB")
	b.ReportMetric(float64(raw.peak)/(1<<20), "raw-peak-heap-MiB")
}
