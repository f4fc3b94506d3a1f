//go:build unix

package harness

import (
	"bytes"
	"io"
	"os"
)

// queries are what programs ask a terminal and wait for, with what a
// terminal would answer: a terminal of a test has nobody to answer them,
// and a program (an agent's CLI probing colors or the cursor) would wait.
var queries = []struct{ ask, answer string }{
	{"\x1b[6n", "\x1b[1;1R"},                          // cursor position
	{"\x1b[c", "\x1b[?62;c"},                          // device attributes
	{"\x1b[0c", "\x1b[?62;c"},                         //
	{"\x1b]10;?", "\x1b]10;rgb:ffff/ffff/ffff\x1b\\"}, // foreground
	{"\x1b]11;?", "\x1b]11;rgb:0000/0000/0000\x1b\\"}, // background
}

// serveTerminal copies what is shown on the terminal whose other end is
// tty to screen, answering the queries it sees, until the terminal closes.
func serveTerminal(tty *os.File, screen io.Writer) {
	defer tty.Close()
	buf := make([]byte, 4096)
	var tail []byte // the end of what came, for a query split across reads
	for {
		n, err := tty.Read(buf)
		if n > 0 {
			screen.Write(buf[:n])
			seen := append(tail, buf[:n]...)
			for _, q := range queries {
				// Each query once: one that ends within the tail was answered.
				for from := 0; ; {
					i := bytes.Index(seen[from:], []byte(q.ask))
					if i < 0 {
						break
					}
					if end := from + i + len(q.ask); end > len(tail) {
						tty.Write([]byte(q.answer))
					}
					from += i + 1
				}
			}
			tail = append([]byte(nil), seen[max(0, len(seen)-8):]...)
		}
		if err != nil {
			return
		}
	}
}
