package hubctl

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/route/hub"
)

// Log prints the hub's decisions log (the hub need not run): each record
// for a person to read, or with raw its JSON line; with last > 0 only the
// last ones; with check, whether each signed record verifies instead.
func Log(w io.Writer, raw bool, last int, check bool) error {
	path, err := hub.DecisionsPath()
	if err != nil {
		return err
	}
	if check {
		return verify(w, path) // verify.go
	}
	if raw && last <= 0 {
		return decisions.Lines(path, w)
	}
	recs, err := decisions.Read(path)
	if err != nil {
		return err
	}
	if last > 0 && len(recs) > last {
		recs = recs[len(recs)-last:]
	}
	for _, r := range recs {
		if raw {
			writeJSONLine(w, r)
			continue
		}
		fmt.Fprintln(w, decisionLine(r))
	}
	if len(recs) == 0 && !raw {
		fmt.Fprintln(w, "No decision is logged yet ("+path+").")
	}
	return nil
}

// decisionLine is one record for a person to read.
func decisionLine(r decisions.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-8s  %s", r.Time.Local().Format("2006-01-02 15:04:05"), r.Kind, r.Outcome)
	// The route as permission.Sources words it ("on the hub's page"), as
	// the docs and the terminal do; the JSON keeps its name.
	where := r.Route.Where()
	if where == "" && r.Route != "" {
		where = "by " + string(r.Route)
	}
	if r.Device != "" {
		where += " (" + r.Device + ")"
	}
	if where = strings.TrimSpace(where); where != "" {
		fmt.Fprintf(&b, " %s", where)
	}
	fmt.Fprintf(&b, " after %s", (time.Duration(r.WaitedMs) * time.Millisecond).Round(time.Second))
	if r.Agent != "" || r.CWD != "" {
		fmt.Fprintf(&b, "  [%s %s]", r.Agent, r.CWD)
	}
	fmt.Fprintf(&b, "\n    asked: %s", r.Asked)
	if r.Digest != "" {
		fmt.Fprintf(&b, " (%s)", r.Digest)
	}
	if r.Answer != "" {
		lasting := ""
		if r.Lasting {
			lasting = " (lasting)"
		}
		fmt.Fprintf(&b, "\n    answer: %s%s", r.Answer, lasting)
	}
	if r.Reason != "" {
		fmt.Fprintf(&b, "\n    reason: %s", r.Reason)
	}
	return b.String()
}

func writeJSONLine(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", b)
}
