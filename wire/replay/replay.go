package replay

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/askbridge/askbridge/conformance"
)

// Run plays each fixture at paths against the askbridge binary exe and
// prints PASS or FAIL with the difference for each, then a tally, on w;
// with update it writes what askbridge sent into the fixtures' want
// sections instead. It returns how many failed.
func Run(exe string, paths []string, update bool, w io.Writer) (failed int) {
	for _, path := range paths {
		f, err := conformance.Load(path)
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			var got conformance.Got
			got, err = conformance.ReplayBinary(ctx, exe, path, f, nil)
			cancel()
			switch {
			case err == nil && update:
				f.Update(got)
				err = os.WriteFile(path, f.Format(), 0o644)
			case err == nil:
				err = f.Check(got)
			}
		}
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(w, "FAIL %s\n%v\n", path, err)
		case update:
			fmt.Fprintf(w, "UPDATED %s: want-client %d lines, want-agent %d lines\n", path, len(f.WantClient), len(f.WantAgent))
		default:
			fmt.Fprintf(w, "PASS %s\n", path)
		}
	}
	if update {
		fmt.Fprintf(w, "%d updated, %d failed\n", len(paths)-failed, failed)
	} else {
		fmt.Fprintf(w, "%d passed, %d failed\n", len(paths)-failed, failed)
	}
	return failed
}

// Agent plays the agent of the fixture at path on stdin and stdout, as
// Run's askbridge runs it, writing what it received to out; addr, when
// set, is where it serves OpenCode's question routes.
func Agent(path, out, addr string, stdin io.Reader, stdout io.Writer) error {
	f, err := conformance.Load(path)
	if err != nil {
		return err
	}
	return conformance.RunAgentSide(context.Background(), f, stdin, stdout, out, addr)
}

// Record turns the recording at in (askbridge --record, or a Zed ACP log
// export) into a fixture without want lines: written to out[0] when given
// (and said on stderr), else to stdout.
func Record(in string, out []string, stdout, stderr io.Writer) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	f, err := conformance.FromRecording(in, data)
	if err != nil {
		return err
	}
	text := f.Format()
	if len(out) == 0 {
		stdout.Write(text)
		return nil
	}
	if err := os.WriteFile(out[0], text, 0o644); err != nil {
		return err
	}
	desk := ""
	if len(f.Desk) > 0 {
		desk = fmt.Sprintf(", %d desk", len(f.Desk))
	}
	fmt.Fprintf(stderr, "wrote %s: %d client and %d agent lines%s, no want lines yet; say in its comment what it proves, then `askbridge replay -update %s` fills them in from what askbridge does now\n", out[0], len(f.Client), len(f.Agent), desk, out[0])
	return nil
}
