//go:build browser

package desk

import (
	"bufio"
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pageDriver is a node script driving the page in Chromium (e2e/*.mjs),
// read line by line; what it said is logged when the test ends.
type pageDriver struct {
	t      *testing.T
	cmd    *exec.Cmd
	out    syncBuilder
	said   chan string // its lines, for await; dropped when nobody waits
	read   chan struct{}
	waited bool
}

// startDriver runs node script args, for two minutes at most.
func startDriver(t *testing.T, script string, args ...string) *pageDriver {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	d := &pageDriver{t: t, cmd: exec.CommandContext(ctx, "node", append([]string{script}, args...)...),
		said: make(chan string, 1000), read: make(chan struct{})}
	stdout, err := d.cmd.StdoutPipe()
	require.NoError(t, err)
	d.cmd.Stderr = d.cmd.Stdout
	go func() {
		defer close(d.read)
		defer close(d.said)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			d.out.add(sc.Text() + "\n")
			select {
			case d.said <- sc.Text():
			default: // nobody waits for more
			}
		}
	}()
	require.NoError(t, d.cmd.Start())
	t.Cleanup(func() {
		if !d.waited {
			cancel()
			<-d.read
			d.cmd.Wait()
		}
		cancel()
		t.Log("the page driver said:\n" + d.out.String())
	})
	return d
}

// await waits for the driver to say line.
func (d *pageDriver) await(line string) {
	d.t.Helper()
	for l := range d.said {
		if l == line {
			return
		}
	}
	d.t.Fatalf("the page driver ended before %q", line)
}

// finish waits for the driver to end, well, and gives all it said.
func (d *pageDriver) finish() string {
	d.t.Helper()
	<-d.read
	err := d.cmd.Wait()
	d.waited = true
	text := d.out.String()
	require.NoError(d.t, err, text)
	return text
}
