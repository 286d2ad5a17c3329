package config

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/miti99bot/miti99bot/internal/awsenv"
	"github.com/miti99bot/miti99bot/internal/ssm"
)

// ssmTimeout bounds the whole SSM read at start-up.
const ssmTimeout = 5 * time.Second

// resolveSecrets reads each secret from its variable, or from SSM when
// <NAME>_PARAMETER_NAME is set. With no such variable, no AWS call is made.
func resolveSecrets(ctx context.Context, env func(string) string, names []string, source awsenv.Source) (map[string]string, error) {
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
	if source == nil {
		return out, errors.Join(append(problems, fmt.Errorf("SSM: %w", awsenv.ErrNoSource))...)
	}
	cfg, err := source(ctx)
	if err != nil {
		return out, errors.Join(append(problems, fmt.Errorf("SSM: load AWS configuration: %w", err))...)
	}
	client, err := ssm.New(ctx, cfg)
	if err != nil {
		return out, errors.Join(append(problems, fmt.Errorf("SSM: %w", err))...)
	}
	params := make([]string, 0, len(byParam))
	for p := range byParam {
		params = append(params, p)
	}
	sort.Strings(params)
	for start := 0; start < len(params); start += ssm.MaxNames {
		batch := params[start:min(start+ssm.MaxNames, len(params))]
		res, err := client.GetParameters(ctx, batch)
		if err != nil {
			problems = append(problems, fmt.Errorf("SSM: GetParameters %s: %w", strings.Join(batch, ", "), err))
			continue
		}
		for param, value := range res.Values {
			for _, name := range byParam[param] {
				out[name] = value
			}
		}
		for _, missing := range res.Invalid {
			problems = append(problems, fmt.Errorf("SSM: parameter %q (for %s) does not exist", missing, strings.Join(byParam[missing], ", ")))
		}
	}
	return out, errors.Join(problems...)
}
