// Package buildinfo carries what the build stamps into the binary:
//
//	go build -ldflags "-X github.com/miti99bot/miti99bot/internal/buildinfo.GitSHA=$(git rev-parse --short HEAD)"
package buildinfo

// GitSHA is the commit the binary was built from; empty in development
// builds, which turns the deploy notice off.
var GitSHA string
