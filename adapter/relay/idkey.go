package relay

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// IDKey is what a request is remembered by until its response comes: the
// exact value of its JSON id. Two ids share a key only when they are the
// same JSON value, so a peer that re-encodes an id without changing it (1.0
// or 1e0 for 1, "\u0041" or "\/" for "A" or "/") is still matched, and ids
// that differ are never confused, however large: numbers are compared by
// their decimal digits, never through float64 (12345678901234567890 and
// 12345678901234567891 are two ids). A peer that rounds an id (to a float64,
// say) changes its value and is not matched. Anything else (null, true,
// objects and arrays, which JSON-RPC does not allow as ids) is keyed by its
// text.
func IDKey(id []byte) string {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return ""
	}
	switch c := id[0]; {
	case c == '"':
		if bytes.IndexByte(id, '\\') < 0 {
			return string(id) // the common case: nothing to decode
		}
		return stringKey(id)
	case c == '-' || '0' <= c && c <= '9':
		if plainInt(id) {
			return string(id)
		}
		return numberKey(id)
	}
	return string(id)
}

// maxPlainDigits bounds the digits a number's key spells out in full; a
// longer one is keyed in exponent form (digits "e" exponent).
const maxPlainDigits = 64

// plainInt reports whether id is an integer literal that is its own key: no
// fraction, no exponent, no "-0", not too long.
func plainInt(id []byte) bool {
	d := id
	if d[0] == '-' {
		d = d[1:]
		if len(d) == 1 && d[0] == '0' {
			return false
		}
	}
	if len(d) == 0 || len(d) > maxPlainDigits {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// numberKey spells a JSON number by its value: sign, significant digits and
// a power of ten, as a plain integer when it is one of at most
// maxPlainDigits digits. A number that is not valid JSON, or whose exponent
// has more than nine digits, is keyed by its text.
func numberKey(id []byte) string {
	s := string(id)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, int64(0)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e := strings.TrimPrefix(s[i+1:], "+")
		if len(strings.TrimPrefix(e, "-")) > 9 {
			return string(id)
		}
		var err error
		if exp, err = strconv.ParseInt(e, 10, 64); err != nil {
			return string(id)
		}
		mant = s[:i]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" || strings.Trim(intPart+frac, "0123456789") != "" {
		return string(id)
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	digits = trimmed
	if digits == "" {
		return "0" // -0, 0.0, 0e5: all zero
	}
	sign := ""
	if neg {
		sign = "-"
	}
	if exp >= 0 && int64(len(digits))+exp <= maxPlainDigits {
		return sign + digits + strings.Repeat("0", int(exp))
	}
	return sign + digits + "e" + strconv.FormatInt(exp, 10)
}

// stringKey decodes a JSON string's escapes into the key: the string's
// characters as they are, with only '"' and '\' escaped, and a lone
// surrogate (which has no character to stand for) as a \u escape of its
// own. Raw bytes are kept as they came, so no two strings share a key.
func stringKey(id []byte) string {
	if len(id) < 2 || id[len(id)-1] != '"' {
		return string(id)
	}
	raw := id[1 : len(id)-1]
	var b strings.Builder
	b.Grow(len(id))
	b.WriteByte('"')
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			if c == '"' {
				b.WriteString(`\"`)
			} else {
				b.WriteByte(c)
			}
			continue
		}
		if i+1 >= len(raw) {
			return string(id)
		}
		i++
		switch raw[i] {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteByte('/')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(raw[i+1:])
			if !ok {
				return string(id)
			}
			i += 4
			if utf16.IsSurrogate(r) {
				if r2, ok := lowSurrogate(raw[i+1:]); ok && r < 0xdc00 {
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						b.WriteRune(pair)
						i += 6
						continue
					}
				}
				b.WriteString(`\u`)
				b.WriteString(strconv.FormatInt(int64(r), 16))
				continue
			}
			switch r {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			default:
				b.WriteRune(r)
			}
		default:
			return string(id)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// lowSurrogate reads a `\uXXXX` escape at b that holds a low surrogate.
func lowSurrogate(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	r, ok := hex4(b[2:])
	return r, ok && 0xdc00 <= r && r <= 0xdfff
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 || !isHex4(b[:4]) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(v), err == nil
}
