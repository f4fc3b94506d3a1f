package relay

import (
	"encoding/json"
	"fmt"
)

// JSON-RPC error codes askbridge answers with, and the request-cancelled
// code of LSP and ACP.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeInvalidParams  = -32602
	CodeMethodNotFound = -32601
	CodeInternalError  = -32603
	CodeCancelled      = -32800
)

// Error is a JSON-RPC error object. Is compares by code, so callers can test
// errors.Is(err, &Error{Code: CodeCancelled}).
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// InvalidParams is the error for a request whose params break the rules.
func InvalidParams(msg string, data any) *Error {
	return &Error{Code: CodeInvalidParams, Message: msg, Data: data}
}

// Internal is the error for a failure on askbridge's or the agent's side.
func Internal(msg string, data any) *Error {
	return &Error{Code: CodeInternalError, Message: msg, Data: data}
}

// decodeError reads a response's error member; raw may be any JSON.
func decodeError(raw json.RawMessage) *Error {
	e := &Error{Code: CodeInternalError}
	if err := json.Unmarshal(raw, e); err != nil || e.Message == "" {
		e.Message = "malformed error object: " + string(raw)
	}
	return e
}
