package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAnswerText(t *testing.T) {
	for _, tt := range []struct {
		a    Answer
		want string
	}{
		{Answer{Labels: []string{"Go"}}, "Go"},
		{Answer{Labels: []string{"Go", "Rust"}}, "Go, Rust"},
		{Answer{Other: true, Custom: "Zig"}, "Zig"},
		{Answer{Labels: []string{"Go"}, Other: true, Custom: "Zig"}, "Go, Zig"},
		{Answer{Other: true}, OtherWithoutText},
		{Answer{}, ""},
	} {
		assert.Equal(t, tt.want, tt.a.Text(), "%+v", tt.a)
	}
}
