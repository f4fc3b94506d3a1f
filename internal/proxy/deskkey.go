package proxy

import (
	"log/slog"

	"github.com/askbridge/askbridge/internal/hubkey"
)

// deskKey is the key the per-askbridge desk's page holds it to (desk's
// prove.go): the hub's, this user's lasting one, so that a page paired
// with a desk on a fixed port finds it again after a restart (and, its
// devices being of one run, pairs again) rather than a desk it cannot
// tell from a squatter. Nil (a key of the desk's run) where there is none
// to open.
func deskKey(logger *slog.Logger) *hubkey.Key {
	path, err := hubkey.Path()
	if err == nil {
		var k *hubkey.Key
		if k, err = hubkey.Open(path); err == nil {
			return k
		}
	}
	logger.Warn("desk: the page proves a key of this run only", "err", err)
	return nil
}
