package adapter

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// sound is the dialects that pass checkDialect, in table order. A dialect
// that fails is left out with its reason logged: askbridge still relays
// everything, and no other dialect's questions are lost to it.
func sound(ds []dialect.Dialect, logger *slog.Logger) []dialect.Dialect {
	out := make([]dialect.Dialect, 0, len(ds))
	names := map[string]bool{}
	for i, d := range ds {
		err := checkDialect(d)
		if err == nil && names[d.Name()] {
			err = fmt.Errorf("another dialect is named %q", d.Name())
		}
		if err != nil {
			logger.Error("left out a dialect whose hooks cannot work", "index", i, "err", err)
			continue
		}
		names[d.Name()] = true
		out = append(out, d)
	}
	return out
}

// checkDialect says what is wrong with a dialect's declared hooks, as far
// as can be known before it claims anything: a name, and hooks that each
// name a method and a side, once.
func checkDialect(d dialect.Dialect) error {
	if d == nil {
		return errors.New("a nil dialect")
	}
	name := d.Name()
	if name == "" {
		return errors.New("a dialect without a name")
	}
	var errs []error
	type side struct {
		from   dialect.Side
		method string
	}
	seen := map[side]bool{}
	for _, h := range d.Hooks() {
		if err := checkHook(h); err != nil {
			errs = append(errs, err)
		}
		if seen[side{h.From, h.Method}] {
			errs = append(errs, fmt.Errorf("hook %q is declared twice", h.Method))
		}
		seen[side{h.From, h.Method}] = true
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("dialect %s: %w", name, err)
	}
	return nil
}

// checkHook says what is wrong with one hook: no method, a side that is
// neither FromAgent nor FromClient, or update kinds on another method than
// the agent's session/update.
func checkHook(h dialect.Hook) error {
	switch {
	case h.Method == "":
		return errors.New("a hook without a method")
	case h.From != dialect.FromAgent && h.From != dialect.FromClient:
		return fmt.Errorf("hook %q: unknown side %d", h.Method, h.From)
	case h.Updates != nil && (h.From != dialect.FromAgent || h.Method != relay.UpdateMethod):
		return fmt.Errorf("hook %q: update kinds are for the agent's %s only", h.Method, relay.UpdateMethod)
	}
	return nil
}
