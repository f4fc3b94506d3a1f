package decisions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// StatementType names the statement's format, so that its hash cannot be
// taken for another challenge the hub gives.
const StatementType = "askbridge.approval.v1"

// Statement is what an approval (or a denial with its reason) decided at
// a paired device's page applies, as the hub forms it before the passkey
// signs: the passkey's challenge is SHA-256 of its canonical bytes
// (Canonical), so the signature covers exactly what the hub applies.
//
// Canonical form: one JSON object, UTF-8, no spaces, its keys sorted by
// their bytes (the fields below are in that order), <, > and & not
// escaped.
type Statement struct {
	Agent string `json:"agent"` // the asking agent's name
	// Arguments is the digest of the tool call's arguments (its rawInput,
	// Digest): bound by hash, as the record keeps them, so that neither
	// repeats an edit's whole text or a secret in a command.
	Arguments string    `json:"arguments"`
	At        time.Time `json:"at"`     // when the hub formed it (UTC, RFC 3339 with nanoseconds)
	CWD       string    `json:"cwd"`    // the agent's folder
	Device    string    `json:"device"` // the paired device's id
	Host      string    `json:"host"`   // the agent's machine
	Kind      string    `json:"kind"`   // the tool call's kind, as the card shows it
	Nonce     string    `json:"nonce"`  // the hub's fresh random nonce (base64url)
	// Options are the options picked, each as the agent offered it.
	Options []Picked `json:"options"`
	Reason  string   `json:"reason"` // a denial's reason, cleaned as applied
	Set     string   `json:"set"`    // the set's id on the hub (or desk)
	Step    int      `json:"step"`
	Title   string   `json:"title"` // the tool call's title: the command as shown
	Type    string   `json:"type"`  // StatementType
}

// Picked is an option of the agent's, as a statement names it.
type Picked struct {
	Kind     string `json:"kind"`
	Name     string `json:"name"`
	OptionID string `json:"optionId"`
}

// Canonical is s serialised canonically (see Statement): the bytes the
// passkey's challenge is the hash of.
func (s Statement) Canonical() ([]byte, error) {
	s.Type = StatementType
	s.At = s.At.UTC()
	if s.Options == nil {
		s.Options = []Picked{}
	}
	return encode(s) // struct fields are declared in key order
}

// Digest is "sha256:HEX" of a tool call's arguments, however spaced.
func Digest(rawInput json.RawMessage) string {
	if len(rawInput) == 0 {
		return ""
	}
	var flat bytes.Buffer
	if json.Compact(&flat, rawInput) != nil {
		flat.Reset()
		flat.Write(rawInput)
	}
	sum := sha256.Sum256(flat.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ParseStatement reads a statement's bytes; it is an error unless they
// are its canonical form.
func ParseStatement(b []byte) (Statement, error) {
	var s Statement
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("the statement is not JSON: %w", err)
	}
	if s.Type != StatementType {
		return s, fmt.Errorf("the statement's type is %q, not %q", s.Type, StatementType)
	}
	again, err := s.Canonical()
	if err != nil || !bytes.Equal(again, b) {
		return s, fmt.Errorf("the statement is not in its canonical form")
	}
	return s, nil
}

// Challenge is the passkey challenge of a statement's bytes: SHA-256.
func Challenge(statement []byte) []byte {
	h := sha256.Sum256(statement)
	return h[:]
}

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
