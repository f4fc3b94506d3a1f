package relay_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chunkReader hands out its bytes in pieces of random size, as a pipe does.
type chunkReader struct {
	b   []byte
	rnd *rand.Rand
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.b), 1+c.rnd.IntN(3000))
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

// Lines forwarded from the read buffer (see lineWriter.forwardLine) come
// out whole and in order, whatever the read sizes, with askbridge's own
// messages written meanwhile between lines, never inside one: "\r\n" as
// "\n", blank lines dropped, a line longer than the buffer and a last line
// without a newline included.
func TestRelayForwardsFromTheReadBufferInOrder(t *testing.T) {
	var in strings.Builder
	var want []string
	for i := range 3000 {
		l := fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"n":%d,"t":%q}}`, i, strings.Repeat("x", i%700))
		if i%500 == 7 {
			l = fmt.Sprintf(`{"jsonrpc":"2.0","method":"big","params":{"n":%d,"t":%q}}`, i, strings.Repeat("y", relay.ReadBuf+100))
		}
		want = append(want, l)
		in.WriteString(l)
		switch i % 5 {
		case 0:
			in.WriteString("\r\n")
		case 1:
			in.WriteString("\n  \n\n")
		default:
			in.WriteString("\n")
		}
	}
	last := `{"jsonrpc":"2.0","method":"last"}`
	want = append(want, last)
	in.WriteString(last)

	out := &relaytest.Buffer{}
	r := relay.New(relay.Config{
		ClientIn: strings.NewReader(""), ClientOut: out,
		AgentIn: &chunkReader{b: []byte(in.String()), rnd: rand.New(rand.NewPCG(1, 2))}, AgentOut: io.Discard,
	})
	r.Start()
	own := `{"jsonrpc":"2.0","method":"_askbridge/own","params":{}}`
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				r.Client.Notify("_askbridge/own", struct{}{})
				time.Sleep(10 * time.Microsecond)
			}
		}
	})
	select {
	case <-r.AgentDone():
	case <-time.After(20 * time.Second):
		t.Fatal("the relay did not finish")
	}
	close(stop)
	wg.Wait()
	r.Flush()

	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	var forwarded []string
	for _, l := range got {
		if l != own {
			forwarded = append(forwarded, l)
		}
	}
	require.Len(t, forwarded, len(want))
	for i := range want {
		if !assert.Equal(t, want[i], forwarded[i], "line %d", i) {
			break
		}
	}
}
