package trading

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CheckURL validates a price source's base URL: https, or plain http only
// to a loopback host (tests and local mirrors). It returns it without a
// trailing slash.
func CheckURL(name, raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%s: %q is not a URL", name, raw)
	}
	if u.Scheme != "https" {
		ip := net.ParseIP(u.Hostname())
		if u.Scheme != "http" || !(u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())) {
			return "", fmt.Errorf("%s: %q must be https (plain http only on loopback)", name, raw)
		}
	}
	return strings.TrimRight(raw, "/"), nil
}
