package webapp

import (
	"net/http"
	"strings"

	"github.com/miti99bot/miti99bot/internal/webapp/initdata"
)

// authScheme is how the page sends initData: "Authorization: tma <initData>",
// the scheme Telegram's Mini Apps documentation uses.
const authScheme = "tma "

// identify is the user the request's initData names, when Telegram signed
// it and it is fresh. Why it failed is not told to the client, nor logged
// beyond a debug line without the data.
func (s *server) identify(r *http.Request) (initdata.Data, bool) {
	h := r.Header.Get("Authorization")
	if len(h) < len(authScheme) || !strings.EqualFold(h[:len(authScheme)], authScheme) {
		return initdata.Data{}, false
	}
	d, err := s.check.Validate(h[len(authScheme):])
	if err != nil {
		s.log.Debug("mini app request refused", "path", r.URL.Path, "why", err)
		return initdata.Data{}, false
	}
	return d, true
}
