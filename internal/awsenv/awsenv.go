// Package awsenv is where AWS clients get their configuration. The Lambda
// binary builds it from the environment Lambda provides (region, the
// function role's credentials, endpoint overrides) without linking the SDK's
// shared-config chain (profiles, SSO, STS, IMDS), whose package init alone
// weighs on every cold start and which Lambda never needs. The
// container and the tools use the whole chain (package defaultchain).
package awsenv

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Source loads the AWS configuration when a client first needs one (only
// DynamoDB and SSM do, so a bot on MongoDB never calls it).
type Source func(ctx context.Context) (aws.Config, error)

// ErrNoSource is a Source's error when a main wired none.
var ErrNoSource = errors.New("awsenv: no AWS configuration source")

// Lambda is the configuration from what the Lambda runtime puts in the
// environment: AWS_REGION and the execution role's AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, plus the SDK's endpoint
// overrides (AWS_ENDPOINT_URL_<SERVICE>, AWS_ENDPOINT_URL) for tests.
func Lambda(getenv func(string) string) Source {
	return func(context.Context) (aws.Config, error) {
		region := cmp.Or(getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION"))
		creds := aws.Credentials{
			AccessKeyID:     getenv("AWS_ACCESS_KEY_ID"),
			SecretAccessKey: getenv("AWS_SECRET_ACCESS_KEY"),
			SessionToken:    getenv("AWS_SESSION_TOKEN"),
			Source:          "Lambda environment",
		}
		var problems []error
		if region == "" {
			problems = append(problems, errors.New("AWS_REGION is not set (Lambda sets it)"))
		}
		if creds.AccessKeyID == "" || creds.SecretAccessKey == "" {
			problems = append(problems, errors.New("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set (Lambda sets them from the function's role)"))
		}
		if err := errors.Join(problems...); err != nil {
			return aws.Config{}, fmt.Errorf("awsenv: %w", err)
		}
		return aws.Config{
			Region: region,
			Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
				return creds, nil
			}),
			ConfigSources: []any{endpoints(getenv)},
		}, nil
	}
}

// endpoints answers the SDK clients' question "is there an endpoint
// override for this service?" the way the shared chain's environment
// reader does: AWS_ENDPOINT_URL_<SERVICE ID, upper case, spaces as
// underscores>, then AWS_ENDPOINT_URL.
type endpoints func(string) string

func (e endpoints) GetServiceBaseEndpoint(_ context.Context, sdkID string) (string, bool, error) {
	v := cmp.Or(e("AWS_ENDPOINT_URL_"+strings.ToUpper(strings.ReplaceAll(sdkID, " ", "_"))), e("AWS_ENDPOINT_URL"))
	return v, v != "", nil
}

// ServiceEndpoint is the endpoint override cfg holds for a service (its
// SDK id, e.g. "SSM"), as the SDK's own clients resolve it: the global
// BaseEndpoint, else the first config source that names one.
func ServiceEndpoint(ctx context.Context, cfg aws.Config, sdkID string) (string, bool) {
	if cfg.BaseEndpoint != nil {
		return *cfg.BaseEndpoint, true
	}
	type provider interface {
		GetServiceBaseEndpoint(ctx context.Context, sdkID string) (string, bool, error)
	}
	for _, s := range cfg.ConfigSources {
		if p, ok := s.(provider); ok {
			if v, found, err := p.GetServiceBaseEndpoint(ctx, sdkID); err == nil && found {
				return v, true
			}
		}
	}
	return "", false
}
