//go:build unix

package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"time"

	"github.com/askbridge/askbridge/bench/internal/benchhub"
	"github.com/askbridge/askbridge/route/hub"
)

// hubProc is `askbridge hub`, run as a user runs it, and its page.
type hubProc struct{ *benchhub.Hub }

// startHub starts `askbridge hub` outside this process's tree, as
// bench/hubbench does: the askbridge this process starts reports to it.
// Its socket is sock; its state and log are in dir.
func startHub(ctx context.Context, bin, dir, sock string) (*hubProc, error) {
	h, err := benchhub.Start(ctx, bin, dir, sock, filepath.Join(dir, "hub-state"))
	if err != nil {
		return nil, err
	}
	return &hubProc{h}, nil
}

// pair pairs a browser with a passkey with the hub's page. The code is
// the one `askbridge hub pair` asks the hub's socket for (hub.NewCode),
// as a user does who does not read the hub's terminal; the page is then
// paired over HTTP exactly as a browser pairs.
func (h *hubProc) pair(ctx context.Context, sock string) (*page, error) {
	code, err := hub.NewCode(ctx, sock)
	if err != nil {
		return nil, fmt.Errorf("a pairing code: %w", err)
	}
	return pairPage(ctx, h.Page, code.Code)
}

// waitInstances polls the page's GET /instance until n askbridges report.
func waitInstances(ctx context.Context, p *page, n int) error {
	var list []map[string]any
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		list = nil
		if err := p.do(ctx, http.MethodGet, "/instance", nil, &list); err != nil {
			return err
		}
		if len(list) == n {
			return nil
		}
	}
	return fmt.Errorf("%d askbridges report to the hub, want %d", len(list), n)
}
