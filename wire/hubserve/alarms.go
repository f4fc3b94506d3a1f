package hubserve

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/askbridge/askbridge/internal/alarm"
)

// sayAlarms writes, when the hub ends, what it refused because someone
// tried (alarm): one line on its terminal and in its log, none when
// nothing was. The log had each a line a second; this is the total a user
// who was not watching sees.
func sayAlarms(stderr io.Writer, logger *slog.Logger) {
	s := alarm.Summary()
	if s == "" {
		return
	}
	fmt.Fprintf(stderr, "askbridge: hub: refused while it ran: %s\n", s)
	logger.Warn("hub: refused while it ran: " + s)
}
