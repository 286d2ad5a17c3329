package config

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
)

// ssmTimeout bounds the whole SSM read at start-up.
const ssmTimeout = 5 * time.Second

// ssmBatch is GetParameters' limit of names per call.
const ssmBatch = 10

// ParameterGetter is the SSM call Load needs.
type ParameterGetter interface {
	GetParameters(ctx context.Context, in *ssm.GetParametersInput, opts ...func(*ssm.Options)) (*ssm.GetParametersOutput, error)
}

// resolveSecrets reads each secret from its variable, or from SSM when
// <NAME>_PARAMETER_NAME is set. With no such variable, no AWS call is made.
func resolveSecrets(ctx context.Context, env func(string) string, names []string, client ParameterGetter) (map[string]string, error) {
	out := map[string]string{}
	byParam := map[string][]string{} // parameter -> secret names using it
	var problems []error
	for _, name := range names {
		plain, param := env(name), env(name+"_PARAMETER_NAME")
		switch {
		case plain != "" && param != "":
			problems = append(problems, fmt.Errorf("%s and %s_PARAMETER_NAME are both set; set one", name, name))
		case param != "":
			byParam[param] = append(byParam[param], name)
		default:
			out[name] = plain
		}
	}
	if len(byParam) == 0 {
		return out, errors.Join(problems...)
	}

	ctx, cancel := context.WithTimeout(ctx, ssmTimeout)
	defer cancel()
	if client == nil {
		cfg, err := awsconfig.LoadDefaultConfig(ctx)
		if err != nil {
			return out, errors.Join(append(problems, fmt.Errorf("SSM: load AWS configuration: %w", err))...)
		}
		client = ssm.NewFromConfig(cfg)
	}
	params := make([]string, 0, len(byParam))
	for p := range byParam {
		params = append(params, p)
	}
	sort.Strings(params)
	for start := 0; start < len(params); start += ssmBatch {
		batch := params[start:min(start+ssmBatch, len(params))]
		res, err := client.GetParameters(ctx, &ssm.GetParametersInput{Names: batch, WithDecryption: aws.Bool(true)})
		if err != nil {
			problems = append(problems, fmt.Errorf("SSM: GetParameters %s: %w", strings.Join(batch, ", "), err))
			continue
		}
		for _, p := range res.Parameters {
			for _, name := range byParam[aws.ToString(p.Name)] {
				out[name] = aws.ToString(p.Value)
			}
		}
		for _, missing := range res.InvalidParameters {
			problems = append(problems, fmt.Errorf("SSM: parameter %q (for %s) does not exist", missing, strings.Join(byParam[missing], ", ")))
		}
	}
	return out, errors.Join(problems...)
}
