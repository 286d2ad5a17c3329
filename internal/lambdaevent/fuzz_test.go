package lambdaevent_test

import (
	"encoding/json"
	"testing"
)

// FuzzInvoke routes any event Lambda could hand the function: a Function
// URL request, a scheduler event, or neither. Nothing may panic, and an
// event of neither shape is an error, not a call.
func FuzzInvoke(f *testing.F) {
	f.Add(`{"cron":"lolschedule_daily_push","scheduledTime":"2026-11-30T01:00:00Z"}`)
	f.Add(`{"version":"2.0","rawPath":"/webhook","headers":{"x-telegram-bot-api-secret-token":"s"},"requestContext":{"http":{"method":"POST"}},"body":"eyJ1cGRhdGVfaWQiOjF9","isBase64Encoded":true}`)
	f.Add(`{"requestContext":{"http":{"method":"GET"}},"rawPath":"/healthz","rawQueryString":"a=b&c"}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, payload string) {
		var got seen
		_, _ = handler(&got).Invoke(t.Context(), json.RawMessage(payload))
	})
}
