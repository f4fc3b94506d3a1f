//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// The fake agent every contestant relays to: relaybench itself, re-run as
// `relaybench agent FILE`. It answers initialize and session/new as an agent
// does, and a session/prompt whose first text block is "stream" by writing
// FILE (the prepared session/update notifications) to stdout as cat would,
// then the prompt's result; any other prompt is answered at once. For the
// other direction it counts the upMethod notifications the editor streams
// and answers countMethod with how many arrived since the last count. It
// exits when its stdin closes.
const (
	agentArg    = "agent"
	streamText  = "stream"
	sessionID   = "sess_0123456789"
	upMethod    = "_relaybench/data"
	countMethod = "_relaybench/count"
)

// upMark finds an upMethod notification without decoding it, as the
// editor's side finds the agent's: the sink must not be what is measured.
var upMark = []byte(`"` + upMethod + `"`)

// incoming is the part of a client message the fake agent reads.
type incoming struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Prompt []struct {
			Text string `json:"text"`
		} `json:"prompt"`
	} `json:"params"`
}

func runAgent(updates string) error {
	r := bufio.NewReaderSize(os.Stdin, 64<<10)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	count := 0
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull { // a line longer than the buffer
			rest, err2 := r.ReadBytes('\n')
			line, err = append(slices.Clone(line), rest...), err2
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if bytes.Contains(line, upMark) {
			count++
			continue
		}
		var m incoming
		if err := json.Unmarshal(line, &m); err != nil {
			return fmt.Errorf("agent: malformed line %q: %w", line, err)
		}
		if m.ID == nil {
			continue // a notification: nothing to answer
		}
		var result string
		switch m.Method {
		case "initialize":
			result = `{"protocolVersion":1,"agentCapabilities":{"loadSession":false},"authMethods":[]}`
		case "session/new":
			result = `{"sessionId":"` + sessionID + `"}`
		case "session/prompt":
			if len(m.Params.Prompt) > 0 && m.Params.Prompt[0].Text == streamText {
				if err := copyFile(w, updates); err != nil {
					return err
				}
			}
			result = `{"stopReason":"end_turn"}`
		case countMethod:
			result = strconv.Itoa(count)
			count = 0
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found: %s"}}`+"\n", m.ID, m.Method)
			if err := w.Flush(); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, result)
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

func copyFile(w *bufio.Writer, path string) error {
	if err := w.Flush(); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// Straight to stdout, as cat writes it: the baseline is the pipe itself.
	_, err = io.Copy(os.Stdout, f)
	return err
}
