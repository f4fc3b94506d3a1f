package relay

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// stringSpan returns the bounds of the string contents starting at b[i]=='"':
// b[start:end] is the raw contents and b[end] the closing quote. Short runs
// (keys, ids, methods) are looked at byte by byte; longer ones with
// bytes.IndexByte, whose set-up costs more than a short string does.
func stringSpan(b []byte, i int) (start, end int, err error) {
	if i >= len(b) || b[i] != '"' {
		return 0, 0, fmt.Errorf("%w: expected string at byte %d", errSyntax, i)
	}
	start = i + 1
	j := start
	for {
		lim := min(j+shortRun, len(b))
		j = quoteOrBackslash(b, j, lim)
		switch {
		case j < lim && b[j] == '"':
			return start, j, nil
		case j == lim:
			q := bytes.IndexByte(b[j:], '"')
			if q < 0 {
				return 0, 0, fmt.Errorf("%w: unterminated string at byte %d", errSyntax, i)
			}
			bs := bytes.IndexByte(b[j:j+q], '\\')
			if bs < 0 {
				return start, j + q, nil
			}
			j += bs
		}
		j++ // past the backslash at b[j]
		if j >= len(b) {
			return 0, 0, fmt.Errorf("%w: unterminated string at byte %d", errSyntax, i)
		}
		switch b[j] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			j++
		case 'u':
			if j+5 > len(b) || !isHex4(b[j+1:j+5]) {
				return 0, 0, fmt.Errorf("%w: bad \\u escape at byte %d", errSyntax, j)
			}
			j += 5
		default:
			return 0, 0, fmt.Errorf("%w: bad escape at byte %d", errSyntax, j)
		}
	}
}

// shortRun is how many bytes of a string stringSpan looks at itself
// before it hands the rest to bytes.IndexByte.
const shortRun = 64

// quoteOrBackslash returns the index of the first '"' or '\\' in b[j:lim],
// or lim: eight bytes at a time, then one by one.
func quoteOrBackslash(b []byte, j, lim int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; j+8 <= lim; j += 8 {
		x := binary.LittleEndian.Uint64(b[j:])
		q, bs := x^(ones*'"'), x^(ones*'\\')
		// A byte of q or bs is zero where x holds the byte looked for; the
		// lowest high bit set marks the first (borrows only run upwards).
		if m := ((q-ones)&^q | (bs-ones)&^bs) & highs; m != 0 {
			return j + bits.TrailingZeros64(m)/8
		}
	}
	for j < lim && b[j] != '"' && b[j] != '\\' {
		j++
	}
	return j
}
