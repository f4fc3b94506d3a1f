package conformance

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr the first time it is used. The package is linked
// into askbridge for its replay subcommand, so what its package variables
// do at init every run of the relay pays for: compiled there, these
// patterns cost each start 0.4 ms and 86 KB of heap it never used.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
