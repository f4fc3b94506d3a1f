package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// WineEnv is set (to anything) by `make test-windows` when it runs the
// test binaries under Wine.
const WineEnv = "ASKBRIDGE_UNDER_WINE"

// BinEnv names an askbridge binary built beforehand, for the tests that
// run the binary where they cannot build it (no Go toolchain under Wine).
const BinEnv = "ASKBRIDGE_TEST_BIN"

// What Wine 8.0 (Debian 12) lacks that tests need, as skip reasons.
const (
	// Wine 8.0 has no AF_UNIX sockets (WSAEAFNOSUPPORT); Windows 10 does.
	NoUnixSockets = "Wine 8.0 has no AF_UNIX sockets (the ask socket); Windows 10 has"
	// Wine keeps no file ACLs: it reports a default DACL whatever is set.
	NoFileACLs = "Wine keeps no file ACLs"
	// The test runs `go`; there is no Go toolchain in the Wine prefix.
	NoGoToolchain = "no Go toolchain under Wine"
	// Wine 8.0 lets two threads both remove one file (or both rename it
	// away); Windows' delete and rename do not (a second one fails).
	NoAtomicRemove = "Wine 8.0 lets two threads both remove one file; Windows does not"
)

// UnderWine reports whether the tests run under Wine.
func UnderWine() bool { return os.Getenv(WineEnv) != "" }

// SkipUnderWine skips t under Wine, giving why (one of the reasons above,
// or a sentence of the test's own).
func SkipUnderWine(t testing.TB, why string) {
	t.Helper()
	if UnderWine() {
		t.Skip("under Wine: " + why)
	}
}

// NeedShell skips t where there is no sh on PATH (Windows without Git
// Bash, Wine): its agent, hook or helper is a shell script.
func NeedShell(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh, which is not on PATH: this test's child process is a shell script")
	}
}
