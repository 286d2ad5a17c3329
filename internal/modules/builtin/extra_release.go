//go:build !testkit

package builtin

import "github.com/miti99bot/miti99bot/internal/app"

// extra is empty in release builds.
var extra []app.Factory
