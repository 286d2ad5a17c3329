// Package defaultchain is the AWS SDK's default configuration chain
// (environment, shared config and credential files with profiles and SSO,
// web identity, the instance or container role), for the container and the
// tools. The Lambda binary does not import it (see package awsenv).
package defaultchain

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"

	"github.com/miti99bot/miti99bot/internal/awsenv"
)

var _ awsenv.Source = Load

// Load is the SDK's default configuration.
func Load(ctx context.Context) (aws.Config, error) {
	return awsconfig.LoadDefaultConfig(ctx)
}
