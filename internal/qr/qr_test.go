package qr

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		modules, err := Modules(text)
		require.NoError(t, err)
		for _, color := range []bool{false, true} {
			drawn := Terminal(modules, color)
			back := Parse(t, drawn)
			require.Len(t, back, len(modules)+len(modules)%2, "two rows a line")
			assert.Equal(t, modules, back[:len(modules)], "the characters hold the encoder's modules")
			for i := len(modules); i < len(back); i++ {
				assert.NotContains(t, back[i], true, "the row past the code is light, like the quiet zone")
			}
			assert.Less(t, len(strings.Split(drawn, "\n")), 30, "fits a terminal")
			assert.Equal(t, text, Decode(t, back), "zbar reads what the terminal shows")
		}
	}
}

// The decoding test can fail: the same code drawn inverted, light on dark
// with a dark quiet zone, is not read as the address.
func TestDecodeCanFail(t *testing.T) {
	const text = "https://192.168.1.20:7683/?token=0123456789abcdef"
	modules, err := Modules(text)
	require.NoError(t, err)
	back := Parse(t, Terminal(modules, false))
	for y := range back {
		for x := range back[y] {
			back[y][x] = !back[y][x] // inverted: the quiet zone turns dark
		}
	}
	assert.NotEqual(t, text, Decode(t, back))
}

// Parse reads modules back from Terminal's characters, by what each
// character shows (not by Blocks, so that a wrong table is caught): the
// drawn half is light.
func Parse(t testing.TB, drawn string) [][]bool {
	t.Helper()
	drawn = regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(drawn, "")
	var rows [][]bool
	for _, line := range strings.Split(strings.TrimSuffix(drawn, "\n"), "\n") {
		var top, bottom []bool
		for _, r := range line {
			drawn, ok := map[rune][2]bool{' ': {false, false}, '▀': {true, false}, '▄': {false, true}, '█': {true, true}}[r]
			require.True(t, ok, "unexpected character %q", r)
			top, bottom = append(top, !drawn[0]), append(bottom, !drawn[1])
		}
		rows = append(rows, top, bottom)
	}
	return rows
}

// Decode has zbarimg read modules drawn as a PNG, 8 pixels a module; it
// skips the test where zbarimg is not installed (apt-get install
// zbar-tools), and returns "" for a code it cannot read.
func Decode(t testing.TB, modules [][]bool) string {
	t.Helper()
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Skip("zbarimg is not installed (Debian: apt-get install zbar-tools): no decoder to read the QR code with")
	}
	const scale = 8
	img := image.NewGray(image.Rect(0, 0, len(modules[0])*scale, len(modules)*scale))
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			c := color.Gray{Y: 255}
			if modules[y/scale][x/scale] {
				c.Y = 0
			}
			img.SetGray(x, y, c)
		}
	}
	file := filepath.Join(t.TempDir(), "code.png")
	f, err := os.Create(file)
	require.NoError(t, err)
	require.NoError(t, png.Encode(f, img))
	require.NoError(t, f.Close())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, zbar, "--raw", "-q", file).Output()
	if err != nil {
		return "" // zbarimg exits 4 when it finds no code
	}
	return strings.TrimSuffix(string(out), "\n")
}
