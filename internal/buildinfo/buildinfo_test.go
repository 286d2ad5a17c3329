package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestTheCommitComesFromTheBuild(t *testing.T) {
	tests := []struct {
		name     string
		stamped  string
		settings []debug.BuildSetting
		want     string
	}{
		{"a stamped short sha", "645121a", nil, "645121a"},
		{"Coolify's full SOURCE_COMMIT is shortened like git's", "645121a3f0e9c2b7d1e4a5b6c7d8e9f0a1b2c3d4", nil, "645121a"},
		{"Go's record of a clean checkout", "", []debug.BuildSetting{{Key: "vcs.revision", Value: "23d4064ffffffffffffffffffffffffffffffff0"}, {Key: "vcs.modified", Value: "false"}}, "23d4064"},
		{"a checkout with local changes is no deploy", "", []debug.BuildSetting{{Key: "vcs.revision", Value: "23d4064ffffffffffffffffffffffffffffffff0"}, {Key: "vcs.modified", Value: "true"}}, ""},
		{"nothing known", "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fromSettings(tt.settings)
			if tt.stamped != "" {
				got = short(tt.stamped)
			}
			if got != tt.want {
				t.Fatalf("commit = %q, want %q", got, tt.want)
			}
		})
	}
}
