package deploy_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/awslabs/goformation/v7/intrinsics"
)

// resolved is the template with its parameters set and its conditions
// and intrinsics worked out, as CloudFormation would deploy it.
func resolved(t *testing.T, params map[string]any) map[string]any {
	data, err := os.ReadFile(templatePath)
	if err != nil {
		t.Fatal(err)
	}
	js, err := intrinsics.ProcessYAML(data, &intrinsics.ProcessorOptions{ParameterOverrides: params, EvaluateConditions: true})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// docs/backup.md's DynamoDB runbook: a table restored from point-in-time
// recovery gets its own name; one parameter points the function, its
// permissions and the stack's output at it, and leaving it empty goes back
// to the stack's own table.
func TestOneParameterPointsTheFunctionAtARestoredTable(t *testing.T) {
	places := func(m map[string]any) map[string]any {
		fn := dig(m, "Resources", "BotFunction", "Properties")
		policies, _ := dig(fn, "Policies").([]any)
		return map[string]any{
			"DYNAMODB_TABLE":     dig(fn, "Environment", "Variables", "DYNAMODB_TABLE"),
			"DynamoDBCrudPolicy": dig(policies[0], "DynamoDBCrudPolicy", "TableName"),
			"the output":         dig(m, "Outputs", "TableName", "Value"),
		}
	}
	// As written: the restored table if named, else the stack's own.
	choice := `{"Fn::If":["UseRestoredTable",{"Ref":"RestoredTable"},{"Ref":"BotTable"}]}`
	for where, got := range places(raw(t)) {
		if js, _ := json.Marshal(got); string(js) != choice {
			t.Errorf("%s = %s; want %s", where, js, choice)
		}
	}
	if cond, _ := json.Marshal(dig(raw(t), "Conditions", "UseRestoredTable")); string(cond) != `{"Fn::Not":[{"Fn::Equals":[{"Ref":"RestoredTable"},""]}]}` {
		t.Errorf("UseRestoredTable = %s; want: RestoredTable is not empty", cond)
	}
	// As deployed with the parameter set.
	for where, got := range places(resolved(t, map[string]any{"RestoredTable": "miti99bot-pitr"})) {
		if got != "miti99bot-pitr" {
			t.Errorf("with RestoredTable=miti99bot-pitr, %s = %v", where, got)
		}
	}
}
