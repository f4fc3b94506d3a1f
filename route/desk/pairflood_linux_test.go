package desk

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Another user's wrong pairing codes and "show a new code" requests, from
// the owner's own loopback address and from another, do not keep the owner
// from pairing, nor make the owner's "show a new code" answer 429. Both
// run as ordinary users: the owner (uid 65534) runs the desk, the attacker
// is uid 65533. Failed before: ten wrong codes from anyone dropped every
// code out, and one page's asking refused every other's for 5 s.
func TestAnotherUsersWrongCodesDoNotStopTheOwnerPairing(t *testing.T) {
	owner := asUser(t, 65534, "TestPairingOwner")
	in, err := owner.StdinPipe()
	require.NoError(t, err)
	out, err := owner.StdoutPipe()
	require.NoError(t, err)
	owner.Stderr = owner.Stdout
	require.NoError(t, owner.Start())
	defer owner.Process.Kill()
	lines := bufio.NewScanner(out)
	var port string
	var said []string
	for port == "" && lines.Scan() {
		said = append(said, lines.Text())
		if p, ok := strings.CutPrefix(lines.Text(), "port "); ok {
			port = p
		}
	}
	require.NotEmpty(t, port, "the owner's desk did not start: %s", strings.Join(said, "\n"))

	attack := asUser(t, 65533, "TestPairingAttacker", "ASKBRIDGE_TEST_PORT="+port)
	got, err := attack.CombinedOutput()
	require.NoError(t, err, string(got))
	assert.Contains(t, string(got), "slowed down or refused", "the attacker's own source was slowed")

	io.WriteString(in, "go\n")
	rest, _ := io.ReadAll(out)
	err = owner.Wait()
	require.NoError(t, err, "the owner could not pair:\n%s", string(rest))
	assert.Contains(t, string(rest), "paired")
}

// TestPairingOwner is the owner: a desk, a code from askbridge hub pair
// (NewCode), then, once the attacker is done, pairing and asking for a new
// code; then its own source flooded (as the agent, same uid, would), the
// link's code.
func TestPairingOwner(t *testing.T) {
	role(t)
	s, _ := newDesk(t, Options{ShowCode: func(code, link string, expires time.Time) string { return "the test terminal" }})
	code, _ := s.Devices().NewCode()
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	fmt.Println("port " + port)
	bufio.NewReader(os.Stdin).ReadString('\n')
	_, status := browserPair(t, &http.Client{}, s, code, false)
	require.Equal(t, http.StatusOK, status, "the owner's code after the flood")
	status, body := do(t, s, http.MethodPost, "/pair/new", "{}", nil)
	require.Equal(t, http.StatusOK, status, "the owner's page asks for a new code: %s", body)
	fresh, _ := s.Devices().NewCode()
	_, status = browserPair(t, &http.Client{}, s, fresh, false)
	require.Equal(t, http.StatusOK, status, "a new code from askbridge hub pair")
	// The agent shares the owner's uid and address: its wrong codes make
	// the owner's source wait, but the link askbridge hub pair prints
	// still pairs at once.
	for i := range 10 {
		do(t, s, http.MethodPost, "/pair/begin", fmt.Sprintf(`{"code":"0000-0000-%04d"}`, i), nil)
	}
	link, _ := s.Devices().NewCode()
	_, status = browserPair(t, &http.Client{}, s, link, false)
	require.Equal(t, http.StatusTooManyRequests, status, "the short code waits with its source")
	link, _ = s.Devices().NewCode()
	_, linked, _ := strings.Cut(s.PairURL(link), "#pair=")
	_, status = browserPair(t, &http.Client{}, s, linked, false)
	require.Equal(t, http.StatusOK, status, "the link's code, at once")
	fmt.Println("paired")
}

// TestPairingAttacker is the other user: wrong codes and code requests
// from 127.0.0.1 (the owner's address) and 127.0.0.2.
func TestPairingAttacker(t *testing.T) {
	role(t)
	port, _ := strconv.Atoi(os.Getenv("ASKBRIDGE_TEST_PORT"))
	slowed := 0
	for _, from := range []string{"127.0.0.1", "127.0.0.2"} {
		client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}).DialContext}}
		post := func(path, body string) int {
			resp, err := client.Post(fmt.Sprintf("http://127.0.0.1:%d%s", port, path), "application/json", strings.NewReader(body))
			if err != nil { // refused at the door (the desk's wall against other users)
				return http.StatusTooManyRequests
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		for i := range 30 {
			if post("/pair/begin", fmt.Sprintf(`{"code":"0000-0000-%04d"}`, i)) == http.StatusTooManyRequests {
				slowed++
			}
		}
		for range 5 {
			if post("/pair/new", "{}") == http.StatusTooManyRequests {
				slowed++
			}
		}
	}
	if slowed > 0 {
		fmt.Println("slowed down or refused", slowed)
	}
}
