package awsenv_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/miti99bot/miti99bot/internal/awsenv"
)

func TestLambdaConfigurationComesFromTheEnvironmentLambdaSets(t *testing.T) {
	env := map[string]string{
		"AWS_REGION": "ap-southeast-1", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "tok",
		"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8000", "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
	}
	cfg, err := awsenv.Lambda(func(k string) string { return env[k] })(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cfg.Credentials.Retrieve(t.Context())
	if err != nil || creds.AccessKeyID != "AKID" || creds.SecretAccessKey != "secret" || creds.SessionToken != "tok" || cfg.Region != "ap-southeast-1" {
		t.Fatalf("region %q, credentials %+v (%v)", cfg.Region, creds, err)
	}
	// The SDK's own client resolves its endpoint override through us.
	if got := dynamodb.NewFromConfig(cfg).Options().BaseEndpoint; got == nil || *got != "http://127.0.0.1:8000" {
		t.Errorf("DynamoDB endpoint %v, want AWS_ENDPOINT_URL_DYNAMODB", got)
	}
	if got, ok := awsenv.ServiceEndpoint(t.Context(), cfg, "SSM"); !ok || got != "http://127.0.0.1:9000" {
		t.Errorf("SSM endpoint %q, want AWS_ENDPOINT_URL for a service without its own", got)
	}
}

func TestLambdaConfigurationWithoutRegionOrCredentialsSaysWhatIsMissing(t *testing.T) {
	_, err := awsenv.Lambda(func(string) string { return "" })(t.Context())
	if err == nil || !strings.Contains(err.Error(), "AWS_REGION") || !strings.Contains(err.Error(), "AWS_ACCESS_KEY_ID") {
		t.Fatalf("err %v", err)
	}
}
