package conformance

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// agentProgram is what askbridge starts as the fixture's agent in a binary
// replay: bin itself, under a name in dir that names the agent of the
// fixture's command (qwen-code for `node …/@qwen-code/qwen-code/cli.js`),
// so askbridge recognises the agent from its command line as it would the
// real one. With no command, bin as it is: a command naming no agent.
func agentProgram(dir, bin string, command []string) (string, error) {
	name := strings.Join(dialect.CommandWords(command), "-")
	if name == "" {
		return bin, nil
	}
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	link := filepath.Join(dir, name)
	// A symbolic link on Unix; on Windows a hard link (a symbolic one
	// needs a privilege there, and Wine makes one it cannot start), else
	// a copy.
	if runtime.GOOS != "windows" && os.Symlink(bin, link) == nil || os.Link(bin, link) == nil {
		return link, nil
	}
	return link, copyFile(bin, link)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
