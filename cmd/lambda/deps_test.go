package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The bootstrap's cold start pays the init of every package it links, and
// its size the load: it links only what the function uses. Lambda hands the
// function its credentials in the environment, so the SDK's shared-config
// chain (profiles, SSO, STS, IMDS) and the generated SSM client stay out of
// it; it serves from DynamoDB (or the memory store), so the MongoDB driver
// and bbolt (with the snapshots, which are the container's) stay out too.
// It draws its charts on the rasteriser alone: no plotting library, with
// its font registry (every face parsed at start), its PDF (which brought
// encoding/gob), SVG, EPS and LaTeX backends.
func TestTheBootstrapLinksOnlyWhatTheFunctionUses(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "lambda.norpc", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	banned := []string{
		"github.com/aws/aws-sdk-go-v2/config",
		"github.com/aws/aws-sdk-go-v2/credentials",
		"github.com/aws/aws-sdk-go-v2/feature/ec2/imds",
		"github.com/aws/aws-sdk-go-v2/service/ssm",
		"github.com/aws/aws-sdk-go-v2/service/sso",
		"github.com/aws/aws-sdk-go-v2/service/ssooidc",
		"github.com/aws/aws-sdk-go-v2/service/sts",
		"github.com/aws/aws-sdk-go-v2/service/signin",
		"go.mongodb.org/mongo-driver/v2/mongo",
		"github.com/miti99bot/miti99bot/internal/storage/mongodb",
		"go.etcd.io/bbolt",
		"github.com/miti99bot/miti99bot/internal/storage/bolt",
		"github.com/miti99bot/miti99bot/internal/backup",
		"gonum.org/v1/plot",
		"gonum.org/v1/plot/vg/vgpdf",
		"gonum.org/v1/plot/vg/vgsvg",
		"gonum.org/v1/plot/vg/vgeps",
		"gonum.org/v1/plot/vg/vgtex",
		"gonum.org/v1/plot/text",
		"codeberg.org/go-latex/latex",
		"encoding/gob",
	}
	needed := []string{
		"github.com/aws/aws-sdk-go-v2/service/dynamodb",
		"github.com/miti99bot/miti99bot/internal/storage/memory",
		// The bootstrap draws its charts itself: no helper ships beside it.
		"github.com/miti99bot/miti99bot/internal/modules/trading/chart/draw",
	}
	linked := map[string]bool{}
	for _, d := range deps {
		linked[d] = true
	}
	for _, b := range banned {
		if linked[b] {
			t.Errorf("the bootstrap links %s", b)
		}
	}
	for _, n := range needed {
		if !linked[n] {
			t.Errorf("the bootstrap does not link %s", n)
		}
	}
}
