package asksocket

import (
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/testkit/testenv"
)

const nobodyEnv = "ASKBRIDGE_TEST_ASK_AS_NOBODY"

// Another uid is refused at the ask socket even when the modes of the
// socket and its folders let it connect: it gets no answer.
func TestAskSocketRefusesAnotherUid(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to connect as another uid")
	}
	runtime := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	require.NoError(t, os.Chmod(runtime, 0o700))
	s, err := Listen()
	require.NoError(t, err)
	defer s.Close()
	stop := s.Serve(askNothing, slog.New(slog.DiscardHandler))
	defer stop()
	path := s.Path()
	require.NoError(t, os.Chmod(path, 0o666))
	for dir := filepath.Dir(path); dir != "/tmp"; dir = filepath.Dir(dir) {
		require.NoError(t, os.Chmod(dir, 0o755))
	}
	cmd := testenv.AsUser(t, 65534, "TestAskAsNobody")
	cmd.Env = append(os.Environ(), nobodyEnv+"="+path)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "got: \n", "closed unanswered")
}

// TestAskAsNobody is the child of TestAskSocketRefusesAnotherUid.
func TestAskAsNobody(t *testing.T) {
	path := os.Getenv(nobodyEnv)
	if path == "" {
		t.Skip("the child of TestAskSocketRefusesAnotherUid")
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		os.Stdout.WriteString("dial: " + err.Error() + "\n")
		return
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, `{"jsonrpc":"2.0","id":1,"method":"_askbridge/nope","params":{}}`+"\n")
	b, _ := io.ReadAll(c)
	os.Stdout.WriteString("got: " + string(b) + "\n")
}
