package mongodb

import (
	"os"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestABuildInfoWithFerretDBsFieldsIsFerretDB(t *testing.T) {
	cases := []struct {
		file string
		want bool
	}{
		{"testdata/buildinfo-ferretdb-v1.24.2.json", true},
		{"testdata/buildinfo-mongodb-7.0.json", false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			js, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			var doc bson.D
			if err := bson.UnmarshalExtJSON(js, true, &doc); err != nil {
				t.Fatal(err)
			}
			raw, err := bson.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if got := isFerretDB(raw); got != c.want {
				t.Errorf("isFerretDB = %v, want %v", got, c.want)
			}
		})
	}
}
