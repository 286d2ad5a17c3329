package config

import "log/slog"

// Secret is a credential read from the environment or SSM. It prints, logs
// and marshals as a mask, so passing a Config (or a Secret) to a logger or
// fmt cannot leak it; Reveal is the one way to the value.
type Secret string

const mask = "[REDACTED]"

// Reveal returns the value, for the one place that needs it.
func (s Secret) Reveal() string { return string(s) }

// IsSet reports whether the secret has a value.
func (s Secret) IsSet() bool { return s != "" }

func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return mask
}

// GoString keeps %#v from printing the value.
func (s Secret) GoString() string { return s.String() }

// LogValue masks the secret in slog output.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText masks the secret in JSON and other encodings.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }
