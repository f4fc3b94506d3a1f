package qr_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/qr"
	"github.com/askbridge/askbridge/internal/qr/qrtest"
)

// TestTerminalDecodes draws a hub address as the terminal shows it, reads
// the modules back from the characters, and has a real decoder (zbar)
// read a picture of them: what a phone's camera gets from the terminal.
func TestTerminalDecodes(t *testing.T) {
	for _, text := range []string{
		"https://100.101.102.103:7683/?token=0123456789abcdef0123456789abcdef",
		"https://laptop.tail1234.ts.net:7683/?token=hub-test-token-0123456789",
		"http://192.168.1.20:7683/?token=x",
	} {
		modules, err := qr.Modules(text)
		require.NoError(t, err)
		for _, color := range []bool{false, true} {
			drawn := qr.Terminal(modules, color)
			back := qrtest.Parse(t, drawn)
			require.Len(t, back, len(modules)+len(modules)%2, "two rows a line")
			assert.Equal(t, modules, back[:len(modules)], "the characters hold the encoder's modules")
			for i := len(modules); i < len(back); i++ {
				assert.NotContains(t, back[i], true, "the row past the code is light, like the quiet zone")
			}
			assert.Less(t, len(strings.Split(drawn, "\n")), 30, "fits a terminal")
			assert.Equal(t, text, qrtest.Decode(t, back), "zbar reads what the terminal shows")
		}
	}
}

// The decoding test can fail: the same code drawn inverted, light on dark
// with a dark quiet zone, is not read as the address.
func TestDecodeCanFail(t *testing.T) {
	const text = "https://192.168.1.20:7683/?token=0123456789abcdef"
	modules, err := qr.Modules(text)
	require.NoError(t, err)
	back := qrtest.Parse(t, qr.Terminal(modules, false))
	for y := range back {
		for x := range back[y] {
			back[y][x] = !back[y][x] // inverted: the quiet zone turns dark
		}
	}
	assert.NotEqual(t, text, qrtest.Decode(t, back))
}
