//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"
)

// askbridge's own targets, printed with its figures: against cat, and
// against the limit relay (issue 26).
const (
	minRatio      = 0.25
	maxAddedP99   = 200 * time.Microsecond
	maxRSSKiB     = 30 * 1024
	minLimitRatio = 0.9
	maxOverLimit  = 10 * time.Microsecond // added p50 beyond the limit's
	maxLimitRSS   = 8 * 1024
	maxSlowerRun  = 2 * time.Millisecond // startup beyond the limit's
	maxHubCost    = 0.05                 // throughput lost with a hub connected (issue 24)
	askbridgeRow  = "askbridge"
	limitRow      = "limit"
	hubRow        = "askbridge + hub"
	previousRow   = "previous release"
)

// report prints one row per contestant; the first is the direct baseline
// the others are compared with.
func report(w io.Writer, all []contestant, res []result) {
	base := res[0]
	baseRate, baseUp := rate(base), upRate(base)
	fmt.Fprintln(w, "| relay | agent→editor (msg/s) | ratio to cat | editor→agent (msg/s) | ratio to cat | added p50 | added p99 | peak RSS | private | startup |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, c := range all {
		r := res[i]
		name := c.name
		if r.err != nil {
			fmt.Fprintf(w, "| %s | failed: %s | | | | | | | | |\n", name, strings.ReplaceAll(r.err.Error(), "|", "/"))
			continue
		}
		p50, p99 := "—", "—"
		if i == 0 {
			name += " (no relay)"
			p50 = us(pct(r.lat, 50)) + " (round trip)"
			p99 = us(pct(r.lat, 99)) + " (round trip)"
		} else {
			p50 = "+" + us(pct(r.lat, 50)-pct(base.lat, 50))
			p99 = "+" + us(pct(r.lat, 99)-pct(base.lat, 99))
		}
		fmt.Fprintf(w, "| %s | %.0f | %.2f | %.0f | %.2f | %s | %s | %s | %s | %s |\n",
			name, rate(r), rate(r)/baseRate, upRate(r), upRate(r)/baseUp, p50, p99, mib(r.rssKiB), mib(r.privKiB), ms(slices.Min(r.startups)))
	}
	ab, lim, hub := -1, -1, -1
	for i, c := range all {
		switch {
		case res[i].err != nil:
		case c.name == askbridgeRow:
			ab = i
		case c.name == limitRow:
			lim = i
		case c.name == hubRow:
			hub = i
		}
	}
	if ab < 0 {
		return
	}
	r := res[ab]
	if hub >= 0 {
		lost := 1 - rate(res[hub])/rate(r)
		fmt.Fprintf(w, "\naskbridge with a hub connected: %.0f msg/s against %.0f without (%+.1f%%; within %.0f%%: %s)\n",
			rate(res[hub]), rate(r), -100*lost, 100*maxHubCost, met(lost <= maxHubCost))
	}
	ratio := rate(r) / baseRate
	added := pct(r.lat, 99) - pct(base.lat, 99)
	fmt.Fprintf(w, "\naskbridge targets: ratio to cat >= %.2f (%.2f %s), added p99 <= %s (%s %s), peak RSS <= %s (%s %s)\n",
		minRatio, down2(ratio), met(ratio >= minRatio),
		us(maxAddedP99), us(added), met(added <= maxAddedP99),
		mib(maxRSSKiB), mib(r.rssKiB), met(r.rssKiB <= maxRSSKiB))
	if lim < 0 {
		return
	}
	l := res[lim]
	limitLine(w, all, res, ab, lim)
	lratio, lup := rate(r)/rate(l), upRate(r)/upRate(l)
	over := pct(r.lat, 50) - pct(l.lat, 50)
	slower := slices.Min(r.startups) - slices.Min(l.startups)
	defer fmt.Fprintf(w, "private memory (RssAnon, sampled every %s): askbridge %s, the limit %s; the rest of peak RSS is the pages of each binary, shared by every process running it\n",
		privateEvery, mib(r.privKiB), mib(l.privKiB))
	fmt.Fprintf(w, "askbridge against the limit: throughput >= %.2fx (agent→editor %.2fx %s, editor→agent %.2fx %s), added p50 within %s (%s %s), peak RSS <= %s (%s %s), startup within %s (%s %s)\n",
		minLimitRatio, down2(lratio), met(lratio >= minLimitRatio), down2(lup), met(lup >= minLimitRatio),
		us(maxOverLimit), signedUS(over), met(over <= maxOverLimit),
		mib(maxLimitRSS), mib(r.rssKiB), met(r.rssKiB <= maxLimitRSS),
		ms(maxSlowerRun), signedMS(slower), met(slower <= maxSlowerRun))
}

// limitLine prints askbridge's throughput and the previous release's, both
// measured in this run, against the limit's, each with its ratio.
func limitLine(w io.Writer, all []contestant, res []result, ab, lim int) {
	l := res[lim]
	fmt.Fprintf(w, "against the limit (io.Copy: agent→editor %.0f msg/s, editor→agent %.0f): askbridge %.0f (%.2fx), %.0f (%.2fx)",
		rate(l), upRate(l), rate(res[ab]), down2(rate(res[ab])/rate(l)), upRate(res[ab]), down2(upRate(res[ab])/upRate(l)))
	for i, c := range all {
		if strings.HasPrefix(c.name, previousRow) && res[i].err == nil {
			fmt.Fprintf(w, "; %s %.0f (%.2fx), %.0f (%.2fx)",
				c.name, rate(res[i]), down2(rate(res[i])/rate(l)), upRate(res[i]), down2(upRate(res[i])/upRate(l)))
		}
	}
	fmt.Fprintln(w)
}

func signedUS(d time.Duration) string {
	if d >= 0 {
		return "+" + us(d)
	}
	return us(d)
}

func signedMS(d time.Duration) string {
	if d >= 0 {
		return "+" + fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

// down2 rounds a ratio down to two decimals, so that one printed next to
// its threshold never reads as the threshold when it falls short of it.
func down2(x float64) float64 { return math.Floor(x*100) / 100 }

func rate(r result) float64 { return float64(r.n) / r.best.Seconds() }

func upRate(r result) float64 { return float64(r.n) / r.up.Seconds() }

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

func pct(sorted []time.Duration, p int) time.Duration {
	return sorted[(len(sorted)-1)*p/100]
}

func us(d time.Duration) string {
	return fmt.Sprintf("%.0fµs", float64(d.Nanoseconds())/1000)
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000)
}

func mib(kib int64) string {
	if kib == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f MiB", float64(kib)/1024)
}

// writeUpdates writes n agent_message_chunk notifications of about 1 KiB.
func writeUpdates(path string, n int) (int64, error) {
	return writeLines(path, n, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"`+sessionID+`","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%d %s"}}}}`)
}

// writeUploads writes the editor's n notifications of the same size for
// the agent, of a method no relay has reason to look into.
func writeUploads(path string, n int) (int64, error) {
	return writeLines(path, n, `{"jsonrpc":"2.0","method":"`+upMethod+`","params":{"sessionId":"`+sessionID+`","data":{"kind":"bench_chunk","content":{"type":"text","text":"%d %s"}}}}`)
}

// writeLines writes n lines of format, given a line number and some text.
func writeLines(path string, n int, format string) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)
	for i := range n {
		fmt.Fprintf(w, format+"\n", i, text)
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	st, err := f.Stat()
	f.Close()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
