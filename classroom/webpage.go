package classroom

import (
	"context"
	"crypto/tls"
	"net"

	"toolgate/classroom/config"
	"toolgate/classroom/web"
)

// The phones' page (classroom/web) joins the server's room, and its codes
// are checked by the SSH login's own code: the same roles, the same
// penalties, paced per address together with SSH's wrong codes.

// webCodes are the server's codes, as the page checks them.
type webCodes struct{ s *Server }

// Check says what a code typed on a phone is: the class code (or, in an
// open room, no code) admits a student; the presenter's and the notes
// screen's are right but not for phones.
func (c webCodes) Check(code string) web.Verdict {
	switch c.s.codeRole(code) {
	case roleStudent:
		return web.Student
	case rolePresenter, roleNotes:
		return web.NotForPhones
	}
	return web.Wrong
}

// Penalize holds a wrong code's answer as SSH's (see wrongCode).
func (c webCodes) Penalize(ctx context.Context, source string, fails int) {
	c.s.wrongCode(ctx, source, "by phone", fails)
}

// newWebPage is the page of the server's lecture.
func (s *Server) newWebPage(cfg config.Web) *web.Server {
	most := cfg.MaxConns
	if most == 0 {
		most = config.DefaultWebMaxConns
	}
	return web.New(web.Options{
		Room:      s.room,
		Scenarios: s.lec.Scenarios,
		Codes:     webCodes{s},
		Limits:    web.Limits{MaxConns: most, MaxConnsPerAddress: cfg.MaxConnsPerAddress, MaxPhones: most, Grace: s.lec.webGrace},
		Secure:    cfg.TLS,
		Printf:    s.Printf,
	})
}

// Web is the phones' page, nil when it is not served.
func (s *Server) Web() *web.Server { return s.web }

// JoinURL is the QR code's link, "" when the page is not served.
func (s *Server) JoinURL() string {
	if s.web == nil {
		return ""
	}
	return s.web.JoinURL(s.cfg.Web.BaseURL())
}

// ServeWeb serves the phones' page on l (with TLS when cfg is not nil)
// until Shutdown or Close.
func (s *Server) ServeWeb(l net.Listener, cfg *tls.Config) error {
	return s.web.Serve(l, cfg)
}
