package toychat

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"strings"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
)

// The route and the credential it proves, declared once.
var (
	Signed = permission.NewProof("the chat's signed callback")
	Route  = permission.NewRoute(permission.RouteInfo{Name: "the toy chat", Source: "chat", Credential: Signed})
)

// Callback is a person's answer from the chat: the set, its step, the
// labels picked, and the bot's MAC over them.
type Callback struct {
	Set    string
	Step   int
	Labels []string
	Who    string // the chat's name for the person
	MAC    []byte
}

// Sign is the bot's MAC of a callback under key.
func Sign(key []byte, set string, step int, labels []string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(set))
	m.Write(binary.BigEndian.AppendUint32(nil, uint32(step)))
	m.Write([]byte(strings.Join(labels, "\x00")))
	return m.Sum(nil)
}

// Chat is the route: its key and the callbacks its bot receives. Heard,
// when set, hears how the board took each callback.
type Chat struct {
	Key       []byte
	Callbacks <-chan Callback
	Heard     func(Callback, error)
}

// Name is the route's name in the table.
func (Chat) Name() string { return "toy chat" }

// Start answers the board with each callback: as the toy chat, proving
// Signed only when the MAC holds.
func (c Chat) Start(env *route.Env) (route.Running, error) {
	ctx, cancel := context.WithCancel(env.Ctx)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case cb := <-c.Callbacks:
				by := permission.By{Device: "chat:" + cb.Who, Name: cb.Who + " in the toy chat", Route: Route, Source: "chat"}
				if hmac.Equal(cb.MAC, Sign(c.Key, cb.Set, cb.Step, cb.Labels)) {
					by.Proof = Signed
				}
				_, err := env.Board.ProgressBy(cb.Set, cb.Step, []permission.Answer{{Labels: cb.Labels}}, by)
				if c.Heard != nil {
					c.Heard(cb, err)
				}
			}
		}
	}()
	return running{cancel}, nil
}

type running struct{ cancel context.CancelFunc }

func (running) Where() string   { return "the toy chat" }
func (running) Missing() string { return "" }
func (running) Showing() bool   { return true }
func (r running) Close()        { r.cancel() }
