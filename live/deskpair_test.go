//go:build live

package live

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/askbridge/askbridge/route/desk"
)

// The tests answer at askbridge's desk as the user does: paired with the
// code askbridge shows on its terminal (never on stderr or in its log),
// letting the device approve without a passkey (the user's opt-in).
var (
	deskScreens sync.Map // desk address -> func() string, the terminal of the askbridge serving it
	deskClients sync.Map // desk address -> *http.Client, paired
)

var deskCode = regexp.MustCompile(`desk pairing code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})`)

// deskClient is a client paired with the desk at addr, once askbridge
// has shown its code.
func deskClient(addr string) (*http.Client, error) {
	if c, ok := deskClients.Load(addr); ok {
		return c.(*http.Client), nil
	}
	screen, ok := deskScreens.Load(addr)
	if !ok {
		return nil, errors.New("askbridge is not started yet")
	}
	m := deskCode.FindStringSubmatch(screen.(func() string)())
	if m == nil {
		return nil, errors.New("no pairing code on askbridge's terminal yet")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := desk.Pair(ctx, "http://"+addr+"/", m[1], true)
	if err != nil {
		return nil, err
	}
	c.Timeout = 30 * time.Second
	actual, _ := deskClients.LoadOrStore(addr, c)
	return actual.(*http.Client), nil
}
