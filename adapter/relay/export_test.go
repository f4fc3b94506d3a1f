package relay

import "log/slog"

// What the tests outside the package (package relay_test, which may use
// relaytest) need of its inside.

// SetLogger replaces r's logger, for tests that read its debug lines.
func SetLogger(r *Relay, l *slog.Logger) { r.logger = l }

// TailLineMax is the longest stderr line an agent's tail keeps.
const TailLineMax = tailLineMax

// Header is what scan reads of a line.
type Header = header

var (
	Scan       = scan
	ScanPrefix = scanPrefix
)

func (h header) IsRequest() bool  { return h.isRequest() }
func (h header) IsResponse() bool { return h.isResponse() }
func (h header) ID() []byte       { return h.id }
func (h header) Method() []byte   { return h.method }
func (h header) Response() bool   { return h.response }

// ReadBuf is the size of a side's read buffer.
const ReadBuf = readBuf

func (h header) IsNotification() bool { return h.isNotification() }

// IDPrefix is what the ids of askbridge's own requests to p begin with.
func IDPrefix(p *Peer) string { return p.prefix }
