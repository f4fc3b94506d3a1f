package qr

import (
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// Modules are a code's modules, row by row, true for dark, with the quiet
// zone of 4 light modules around them that scanners need.
func Modules(text string) ([][]bool, error) {
	code, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, err
	}
	return code.Bitmap(), nil
}

// Blocks are the four half-block characters by (top, bottom) light
// module: a drawn half is a light module, painted in the terminal's
// foreground, so that on the usual light-on-dark terminal the code reads
// dark on light, as phones want it, quiet zone included.
var Blocks = [2][2]rune{{' ', '▄'}, {'▀', '█'}}

// Colors wrap each line, with ANSI, for a terminal: bright white on black,
// so that the code reads dark on light on a light theme too.
const (
	colorOn  = "\x1b[97;40m"
	colorOff = "\x1b[0m"
)

// Terminal draws modules two rows per line; color adds the ANSI colors for
// a terminal (not for a log file).
func Terminal(modules [][]bool, color bool) string {
	var b strings.Builder
	for y := 0; y < len(modules); y += 2 {
		if color {
			b.WriteString(colorOn)
		}
		for x := range modules[y] {
			top := !modules[y][x]
			bottom := y+1 >= len(modules) || !modules[y+1][x] // past the end: light, as the quiet zone
			b.WriteRune(Blocks[b2i(top)][b2i(bottom)])
		}
		if color {
			b.WriteString(colorOff)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}
