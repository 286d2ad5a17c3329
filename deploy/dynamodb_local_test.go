package deploy_test

import (
	"os/exec"
	"strings"
	"testing"
)

// make dynamodb-local's table creation and the export line it prints carry
// dummy credentials and AWS_EC2_METADATA_DISABLED: without them the SDK
// looks for real credentials and probes the EC2 metadata address.
func TestTheLocalDynamoDBTargetNeedsNoRealAWS(t *testing.T) {
	out, err := exec.Command("make", "-n", "-C", "..", "dynamodb-local").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n dynamodb-local: %v\n%s", err, out)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "botctl table create") || strings.Contains(l, "export ") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 {
		t.Fatalf("want the table creation and the export line, got %q", lines)
	}
	for _, l := range lines {
		for _, want := range []string{"AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:8000", "AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY=", "AWS_REGION=", "AWS_EC2_METADATA_DISABLED=true"} {
			if !strings.Contains(l, want) {
				t.Errorf("%q lacks %s", l, want)
			}
		}
	}
}
