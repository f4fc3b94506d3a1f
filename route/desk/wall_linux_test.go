package desk

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/testkit/testenv"
)

// wallRoleEnv makes the test binary play a part (TestWallRole).
const wallRoleEnv = "ASKBRIDGE_TEST_WALL_ROLE"

// asUid starts TestWallRole as role, as uid, this test binary copied where
// that uid can run it.
func asUid(t *testing.T, uid int, role string, env ...string) *exec.Cmd {
	cmd := testenv.AsUser(t, uid, "TestWallRole")
	cmd.Env = append(os.Environ(), append(env, wallRoleEnv+"="+role, "HOME=/tmp")...)
	return cmd
}

// output runs cmd, bounded, and returns what it printed.
func output(t *testing.T, cmd *exec.Cmd) string {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
		}
	}()
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// Another user on the machine (uid 65533) and the user's desk (uid 65534):
// the page is printed as http://localhost:PORT/, and a browser tries ::1
// first, so the desk holds [::1]:PORT too and the other user cannot bind it
// (before: the desk held 127.0.0.1 alone, and [::1]:PORT was theirs to
// take, page, code, cookie and key with it). Both addresses reach the
// desk, for its user; a loopback connection of the other user is refused
// at once, on either (before: it got the page).
func TestTheDeskHoldsBothLoopbacksForItsUserAlone(t *testing.T) {
	desk := asUid(t, 65534, "desk")
	stdout, err := desk.StdoutPipe()
	require.NoError(t, err)
	stdin, err := desk.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, desk.Start())
	t.Cleanup(func() { stdin.Close(); desk.Process.Kill(); desk.Wait() })
	sc := bufio.NewScanner(stdout)
	var port string
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "PORT "); ok {
			port = p
			break
		}
	}
	require.NotEmpty(t, port, "the desk said where it is")
	v6 := ipv6Loopback()

	if v6 {
		assert.Contains(t, output(t, asUid(t, 65533, "bind", "ADDR=[::1]:"+port)), "TAKEN", "another user cannot hold ::1 on the page's port")
	}
	for _, host := range []string{"127.0.0.1", "[::1]"} {
		if host == "[::1]" && !v6 {
			continue
		}
		assert.Contains(t, output(t, asUid(t, 65534, "get", "ADDR="+host+":"+port)), "STATUS 200", "the user reaches the desk on %s", host)
		out := output(t, asUid(t, 65533, "get", "ADDR="+host+":"+port))
		assert.Contains(t, out, "REFUSED", "another user's connection on %s", host)
		assert.NotContains(t, out, "STATUS", host)
	}
}

func ipv6Loopback() bool {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// TestWallRole is a part of TestTheDeskHoldsBothLoopbacksForItsUserAlone.
func TestWallRole(t *testing.T) {
	switch os.Getenv(wallRoleEnv) {
	case "":
		t.Skip("a part a test plays as another user")
	case "desk":
		s, err := Listen("127.0.0.1:0", permission.NewBoard(), Options{})
		require.NoError(t, err)
		defer s.Close()
		_, port, _ := net.SplitHostPort(s.ln.Addr().String())
		fmt.Println("PORT", port)
		io.Copy(io.Discard, os.Stdin) // until the test ends
	case "bind":
		ln, err := net.Listen("tcp", os.Getenv("ADDR"))
		if err != nil {
			fmt.Println("TAKEN", err)
			return
		}
		ln.Close()
		fmt.Println("BOUND")
	case "get":
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+os.Getenv("ADDR")+"/", nil)
		req.Host = "localhost"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println("REFUSED", err)
			return
		}
		resp.Body.Close()
		fmt.Println("STATUS", resp.StatusCode)
	}
}
