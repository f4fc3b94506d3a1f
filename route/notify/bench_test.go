package notify

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// BenchmarkAskedToHook measures the "within a second": from a set
// going up on the board to the hook's process having read its event. It
// reports the median and the slowest of b.N sets.
func BenchmarkAskedToHook(b *testing.B) {
	dir := b.TempDir()
	b.Setenv("OUT", dir)
	board := permission.NewBoard()
	n, err := Start(board, Options{Hook: `cat > "$OUT/$ASKBRIDGE_QUESTION_ID.$ASKBRIDGE_EVENT.json"`})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	var took []time.Duration
	for b.Loop() {
		begin := time.Now()
		tk := ask(board, "s", question("Q?", "H", "a", "b"))
		path := filepath.Join(dir, tk.ID+".asked.json")
		for {
			if st, err := os.Stat(path); err == nil && st.Size() > 0 {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		took = append(took, time.Since(begin))
		board.Settle(tk.ID, permission.Result{}, permission.ByEditor())
	}
	report(b, took)
}

// BenchmarkAskedToWebhook: from a set going up to the webhook having its
// POST, on loopback.
func BenchmarkAskedToWebhook(b *testing.B) {
	got := make(chan time.Time, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- time.Now() }))
	defer srv.Close()
	board := permission.NewBoard()
	n, err := Start(board, Options{URL: srv.URL + "/topic"})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	var took []time.Duration
	for b.Loop() {
		begin := time.Now()
		tk := ask(board, "s", question("Q?", "H", "a", "b"))
		took = append(took, (<-got).Sub(begin))
		board.Settle(tk.ID, permission.Result{}, permission.ByEditor())
		<-got // the answer's POST
	}
	report(b, took)
}

func report(b *testing.B, took []time.Duration) {
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	median, slowest := took[len(took)/2], took[len(took)-1]
	b.ReportMetric(float64(median.Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(slowest.Microseconds())/1000, "ms-max")
	b.Logf("asked → delivered over %d sets: median %s, slowest %s (the issue asks for < 1s)", len(took), median, slowest)
	if slowest >= time.Second {
		b.Errorf("a set took %s to reach its consumer", slowest)
	}
}
