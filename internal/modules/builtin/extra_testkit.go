//go:build testkit

package builtin

import (
	"github.com/miti99bot/miti99bot/internal/app"
	"github.com/miti99bot/miti99bot/internal/modules/testkit"
)

// extra adds the runtime tests' module to binaries built with -tags testkit.
var extra = []app.Factory{testkit.Factory}
