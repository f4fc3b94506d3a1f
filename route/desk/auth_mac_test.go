package desk

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cookieOnly is a request to s carrying sess's cookie, as the browser
// sends it by itself, and nothing else of the session.
func cookieOnly(t *testing.T, s *Server, method, path, body string, sess pairing.Session) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, s.base()+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Cookie", s.cookieName()+"="+sess.Cookie)
	return req
}

// send sends req again as it is, headers and body.
func send(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	req = req.Clone(req.Context())
	if req.GetBody != nil {
		req.Body, _ = req.GetBody()
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// assertOpen fails if tk was answered or ended.
func assertOpen(t *testing.T, tk *permission.Ticket, msg string) {
	t.Helper()
	select {
	case <-tk.Done():
		t.Errorf("%s: the set ended: %+v", msg, tk.Result())
	default:
	}
}

const postgres = `{"answers":[["Postgres"]]}`

// A request proved with a MAC over its own ticket passes, once: sent
// again, as a squatter that caught it would, it is refused.
func TestARequestProvedOverItsTicketPassesOnce(t *testing.T) {
	s, board := newDesk(t, Options{})
	sess := sessionOf(t, s)
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})

	hold := cookieOnly(t, s, "POST", "/question/"+tk.ID+"/hold", "", sess)
	require.NoError(t, Sign(hold, requestKeyOf(s, sess)))
	assert.Empty(t, hold.Header.Get(KeyHeader), "the session's key never leaves")
	code, body := send(t, hold)
	require.Equal(t, http.StatusOK, code, body)
	code, _ = send(t, hold)
	assert.Equal(t, http.StatusUnauthorized, code, "its ticket is spent")

	reply := cookieOnly(t, s, "POST", "/question/"+tk.ID+"/reply", postgres, sess)
	require.NoError(t, Sign(reply, requestKeyOf(s, sess)))
	code, body = send(t, reply)
	require.Equal(t, http.StatusOK, code, body)
	<-tk.Done()
	assert.Equal(t, []string{"Postgres"}, tk.Result().Answers[0].Answer.Labels)
}

// A MAC vouches for its own method, path and body only: moved onto
// another request, with its ticket, it is refused, and the request it
// was made for still passes.
func TestAProofDoesNotCarryToAnotherRequest(t *testing.T) {
	s, board := newDesk(t, Options{})
	sess := sessionOf(t, s)
	a := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})
	b := board.Open(permission.Request{SessionID: "s2", Questions: []permission.Question{dbQ}})

	made := cookieOnly(t, s, "POST", "/question/"+a.ID+"/reply", `{"answers":[["SQLite"]]}`, sess)
	require.NoError(t, Sign(made, requestKeyOf(s, sess)))
	for name, other := range map[string]*http.Request{
		"another path":   cookieOnly(t, s, "POST", "/question/"+b.ID+"/reply", `{"answers":[["SQLite"]]}`, sess),
		"another body":   cookieOnly(t, s, "POST", "/question/"+a.ID+"/reply", postgres, sess),
		"another method": cookieOnly(t, s, "DELETE", "/api/devices/"+strings.Split(sess.Cookie, ".")[0], "", sess),
	} {
		other.Header.Set(TicketHeader, made.Header.Get(TicketHeader))
		other.Header.Set(MACHeader, made.Header.Get(MACHeader))
		code, _ := send(t, other)
		assert.Equal(t, http.StatusUnauthorized, code, name)
	}
	_, paired := s.Devices().Get(strings.Split(sess.Cookie, ".")[0])
	assert.True(t, paired)
	code, body := send(t, made)
	require.Equal(t, http.StatusOK, code, body)
	<-a.Done()
	assert.Equal(t, []string{"SQLite"}, a.Result().Answers[0].Answer.Labels)
	assertOpen(t, b, "the other set is untouched")
}

// The session's key in its header, the way the page sent it before,
// opens reads only: nothing that changes anything.
func TestTheSessionKeyAloneChangesNothing(t *testing.T) {
	s, board := newDesk(t, Options{})
	sess := sessionOf(t, s)
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})

	reply := cookieOnly(t, s, "POST", "/question/"+tk.ID+"/reply", postgres, sess)
	reply.Header.Set(KeyHeader, sess.Key)
	code, body := send(t, reply)
	assert.Equal(t, http.StatusUnauthorized, code, body)
	assert.Contains(t, body, MACHeader, "the refusal says what is wanted")
	assertOpen(t, tk, "not answered")

	list := cookieOnly(t, s, "GET", "/question", "", sess)
	list.Header.Set(KeyHeader, sess.Key)
	code, body = send(t, list)
	assert.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, tk.ID)
}

// A proof made under one device's request key does not pass with another
// device's cookie, nor does a ticket this hub never gave out (the one a
// squatter caught from a hub since restarted, same key, same devices).
func TestAProofIsTheDevicesAndTheRunsOwn(t *testing.T) {
	key := hubkey.Generate()
	devices := pairing.Memory()
	s, board := newDesk(t, Options{Key: key, Devices: devices})
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})
	_, mine, err := devices.Add("phone", "", nil, nil, false)
	require.NoError(t, err)
	_, other, err := devices.Add("laptop", "", nil, nil, false)
	require.NoError(t, err)

	crossed := cookieOnly(t, s, "POST", "/question/"+tk.ID+"/hold", "", other)
	require.NoError(t, Sign(crossed, requestKeyOf(s, mine)))
	code, _ := send(t, crossed)
	assert.Equal(t, http.StatusUnauthorized, code, "another device's request key")

	restarted, _ := newDesk(t, Options{Key: key, Devices: devices})
	caught := cookieOnly(t, s, "POST", "/question/"+tk.ID+"/hold", "", mine)
	require.NoError(t, Sign(caught, requestKeyOf(s, mine)))
	caught.URL.Host = restarted.ln.Addr().String() // the hub back, the ticket s's
	code, _ = send(t, caught)
	assert.Equal(t, http.StatusUnauthorized, code, "a ticket this run never gave")
}

// Tickets live ticketLife and the store holds at most maxTickets: a flood
// of asks pushes out the oldest rather than growing.
func TestTicketsExpireAndAreBounded(t *testing.T) {
	var ts tickets
	now := time.Now()
	old := ts.issue(now)
	assert.False(t, ts.take(old, now.Add(ticketLife)), "expired")
	first := ts.issue(now)
	for range maxTickets {
		ts.issue(now)
	}
	assert.LessOrEqual(t, len(ts.out), maxTickets)
	assert.LessOrEqual(t, len(ts.order), maxTickets)
	assert.False(t, ts.take(first, now), "pushed out")
	last := ts.issue(now)
	assert.True(t, ts.take(last, now))
	assert.False(t, ts.take(last, now), "once")
}
