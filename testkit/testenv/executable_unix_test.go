//go:build unix

package testenv

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// A program written while other goroutines start processes runs at once:
// none of those processes holds it open for writing (with a plain
// os.WriteFile, each of five runs here failed within 100 programs, with
// "text file busy").
func TestAWrittenProgramRunsWhileOthersStartProcesses(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					exec.Command("/bin/sh", "-c", "exit 0").Run()
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	dir := t.TempDir()
	for i := range 100 {
		bin := filepath.Join(dir, fmt.Sprint("prog", i))
		WriteExecutable(t, bin, []byte("#!/bin/sh\nexit 0\n"))
		if err := exec.Command(bin).Run(); err != nil {
			t.Fatalf("run %d of the program just written: %v", i, err)
		}
	}
}
