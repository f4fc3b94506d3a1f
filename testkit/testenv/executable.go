package testenv

import (
	"os"
	"syscall"
	"testing"
)

// WriteExecutable writes data to path as a program (mode 0755) that the
// test runs next. It holds syscall.ForkLock for reading while the file is
// open for writing, so no process that this one starts meanwhile (a
// parallel test's) inherits that descriptor: until such a child reached
// its own exec, running path would fail with "text file busy" (ETXTBSY,
// https://go.dev/issue/22315).
func WriteExecutable(t testing.TB, path string, data []byte) {
	t.Helper()
	syscall.ForkLock.RLock()
	err := os.WriteFile(path, data, 0o755)
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
}

// CopyExecutable copies the program at from to to with WriteExecutable.
func CopyExecutable(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	WriteExecutable(t, to, b)
}
