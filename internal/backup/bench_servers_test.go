package backup_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsddb "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/miti99bot/miti99bot/internal/backup"
	"github.com/miti99bot/miti99bot/internal/storage"
	"github.com/miti99bot/miti99bot/internal/storage/backendtest"
	"github.com/miti99bot/miti99bot/internal/testenv"
)

// BenchmarkSnapshotServer100k takes a snapshot of 100,000 items on each
// server next to the plainest scan of it into a file (the driver's pages
// written out as they come, synced), interleaved, and each one's peak
// heap. Run it with:
//
//	scripts/with-testservers go test -run '^$' -bench SnapshotServer100k -benchtime 3x ./internal/backup/
func BenchmarkSnapshotServer100k(b *testing.B) {
	servers := []struct {
		name string
		open func(b *testing.B) (storage.KVProvider, func(f *bufio.Writer) error)
	}{
		{"mongodb", func(b *testing.B) (storage.KVProvider, func(*bufio.Writer) error) {
			p := backendtest.Mongo(b)
			return p, func(w *bufio.Writer) error {
				names, err := p.Database().ListCollectionNames(context.Background(), bson.D{})
				if err != nil {
					return err
				}
				for _, n := range names {
					cur, err := p.Database().Collection(n).Find(context.Background(), bson.D{}, options.Find().SetBatchSize(500))
					if err != nil {
						return err
					}
					for cur.Next(context.Background()) {
						w.Write(cur.Current)
					}
					if err := cur.Close(context.Background()); err != nil {
						return err
					}
				}
				return nil
			}
		}},
		{"dynamodb", func(b *testing.B) (storage.KVProvider, func(*bufio.Writer) error) {
			p := backendtest.Dynamo(b)
			return p, func(w *bufio.Writer) error {
				pages := awsddb.NewScanPaginator(p.Client(), &awsddb.ScanInput{TableName: aws.String(p.Table()), ConsistentRead: aws.Bool(true), Limit: aws.Int32(5000)})
				for pages.HasMorePages() {
					page, err := pages.NextPage(context.Background())
					if err != nil {
						return err
					}
					for _, it := range page.Items {
						for _, k := range []string{"pk", "sk"} {
							w.WriteString(it[k].(*types.AttributeValueMemberS).Value)
						}
						w.Write(it["value"].(*types.AttributeValueMemberB).Value)
					}
				}
				return nil
			}
		}},
	}
	for _, s := range servers {
		b.Run(s.name, func(b *testing.B) {
			p, scan := s.open(b)
			fill(b, p.(backup.Target), generated(100_000))
			dir := b.TempDir()
			raw := func() error {
				f, err := os.Create(filepath.Join(dir, "raw"))
				if err != nil {
					return err
				}
				defer f.Close()
				w := bufio.NewWriterSize(f, 1<<20)
				if err := scan(w); err != nil {
					return err
				}
				if err := w.Flush(); err != nil {
					return err
				}
				return f.Sync()
			}
			snap := func() error {
				_, err := backup.WriteFile(context.Background(), p, filepath.Join(dir, "snap.tar"), backup.Options{})
				return err
			}
			heap, rawHeap := peakHeap(func() { _ = snap() }), peakHeap(func() { _ = raw() })
			testenv.SideBySide(b, testenv.Side{Name: "snapshot", Run: snap}, testenv.Side{Name: "raw", Run: raw})
			b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(rawHeap)/(1<<20), "raw-peak-heap-MiB")
		})
	}
}
