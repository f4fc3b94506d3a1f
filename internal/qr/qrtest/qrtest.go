package qrtest

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

	"github.com/stretchr/testify/require"
)

// ansi are the color escapes qr.Terminal may add.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// Parse reads modules back from qr.Terminal's characters, by what each
// character shows (not by qr.Blocks, so that a wrong table is caught): the
// drawn half is light.
func Parse(t testing.TB, drawn string) [][]bool {
	t.Helper()
	drawn = ansi.ReplaceAllString(drawn, "")
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
