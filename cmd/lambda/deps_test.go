package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The bootstrap's cold start pays the init of every package it links
// (issue #19): Lambda hands the function its credentials in the
// environment, so the SDK's shared-config chain (profiles, SSO, STS, IMDS)
// and the generated SSM client stay out of it. MongoDB stays in: the
// function may serve from Atlas during a cutover.
func TestTheBootstrapLinksNeitherTheSharedConfigChainNorTheSSMClient(t *testing.T) {
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
	}
	needed := []string{
		"github.com/aws/aws-sdk-go-v2/service/dynamodb",
		"go.mongodb.org/mongo-driver/v2/mongo",
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
