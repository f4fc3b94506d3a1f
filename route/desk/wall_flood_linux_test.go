package desk

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/alarm"
	"github.com/askbridge/askbridge/permission"
)

// floodConns is how many connections the other user makes, 10 ms apart:
// a flood of 2 s and more, never a second's pause in it.
const floodConns = 200

// Another user (uid 65533) floods the desk of the user (uid 65534) with
// loopback connections: every one is refused, and the desk's log says so
// once a second, each line with the count since the last, every refusal
// counted; at the end the summary has them all. Failed before: the 1 s
// quiet period restarted at every refusal, so a flood was one line, with
// no count, however long it went on.
func TestAFloodOfOtherUsersConnectionsIsCountedAndLogged(t *testing.T) {
	desk := asUser(t, 65534, "TestWallFloodRole", "FLOOD_ROLE=desk")
	stdout, err := desk.StdoutPipe()
	require.NoError(t, err)
	stdin, err := desk.StdinPipe()
	require.NoError(t, err)
	log := &syncLog{}
	desk.Stderr = log
	require.NoError(t, desk.Start())
	t.Cleanup(func() { stdin.Close(); desk.Process.Kill(); desk.Wait() })
	lines := bufio.NewScanner(stdout)
	var port string
	for port == "" && lines.Scan() {
		if p, ok := strings.CutPrefix(lines.Text(), "PORT "); ok {
			port = p
		}
	}
	require.NotEmpty(t, port, "the desk said where it is")

	start := time.Now()
	out := output(t, asUser(t, 65533, "TestWallFloodRole", "FLOOD_ROLE=flood", "ADDR=127.0.0.1:"+port))
	require.Contains(t, out, fmt.Sprintf("REFUSED %d", floodConns), out)
	took := time.Since(start)

	var counts []int
	require.Eventually(t, func() bool {
		counts = lineCounts(log.String(), string(alarm.OtherUser))
		sum := 0
		for _, n := range counts {
			sum += n
		}
		return sum == floodConns
	}, 5*time.Second, 20*time.Millisecond, "every refusal counted in the log: %v\n%s", counts, log)
	t.Logf("%d refusals in %v, logged as %v", floodConns, took.Round(time.Millisecond), counts)
	assert.GreaterOrEqual(t, len(counts), 2, "a flood over %v is logged every second, not once", took)
	assert.LessOrEqual(t, len(counts), int(took/time.Second)+3, "at most a line a second: %v", counts)
	assert.Contains(t, log.String(), "uid=65533", "the line names the other user")

	stdin.Close()
	for lines.Scan() {
		if s, ok := strings.CutPrefix(lines.Text(), "SUMMARY "); ok {
			assert.Equal(t, fmt.Sprintf("%s: %d", alarm.OtherUser, floodConns), s)
			return
		}
	}
	t.Fatal("the desk printed no summary")
}

// TestWallFloodRole is a part of
// TestAFloodOfOtherUsersConnectionsIsCountedAndLogged.
func TestWallFloodRole(t *testing.T) {
	role(t)
	switch os.Getenv("FLOOD_ROLE") {
	case "desk":
		s, err := Listen("127.0.0.1:0", permission.NewBoard(), Options{Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
		require.NoError(t, err)
		defer s.Close()
		_, port, _ := net.SplitHostPort(s.ln.Addr().String())
		fmt.Println("PORT", port)
		io.Copy(io.Discard, os.Stdin) // until the test is done
		fmt.Println("SUMMARY", alarm.Summary())
	case "flood":
		refused := 0
		for range floodConns {
			c, err := net.DialTimeout("tcp", os.Getenv("ADDR"), 5*time.Second)
			if err == nil {
				c.SetReadDeadline(time.Now().Add(5 * time.Second))
				if _, err := c.Read(make([]byte, 1)); err != nil && !os.IsTimeout(err) {
					refused++ // closed by the desk, unanswered
				}
				c.Close()
			}
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Println("REFUSED", refused)
	}
}
