package hub

import (
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/testkit/testenv"
)

const nobodyEnv = "ASKBRIDGE_TEST_DIAL_AS_NOBODY"

// nobodyGet has uid 65534 send GET /question to the socket at path (this
// test binary, copied where that uid can run it) and returns what came
// back.
func nobodyGet(t *testing.T, path string) string {
	cmd := testenv.AsUser(t, 65534, "TestDialAsNobody")
	cmd.Env = append(os.Environ(), nobodyEnv+"="+path)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	return string(out)
}

// TestDialAsNobody is nobodyGet's child: it runs only with nobodyEnv set.
func TestDialAsNobody(t *testing.T) {
	path := os.Getenv(nobodyEnv)
	if path == "" {
		t.Skip("the child of nobodyGet")
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		os.Stdout.WriteString("dial: " + err.Error() + "\n")
		return
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET /question HTTP/1.0\r\nHost: localhost\r\n\r\n")
	b, err := io.ReadAll(c)
	os.Stdout.WriteString("got: " + string(b) + "\n")
	if err != nil {
		os.Stdout.WriteString("read: " + err.Error() + "\n")
	}
}
