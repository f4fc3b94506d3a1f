package nsinit

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"time"
)

// Arg is the hidden first argument that makes a program that imports
// nsinit the init of an agent's namespaces.
const Arg = "__contain-init"

// HiddenSource is the source of the tmpfs that hides each of askbridge's
// folders: what a process in the container finds in its mount table.
const HiddenSource = "askbridge-hidden"

func init() {
	if len(os.Args) > 1 && os.Args[1] == Arg {
		os.Exit(Init(os.Args[2:]))
	}
}

// options are the init's flags, as package contain writes them: -grace D,
// -uid N, -gid N (the init maps the ids itself; absent, they are mapped
// already), -hide DIR and -keep PATH (repeated), -home DIR, then --, the
// agent's path and its argv.
type options struct {
	grace      time.Duration
	uid, gid   int
	hide, keep []string
	home       string // the user's home, symbolic links resolved
	path       string
	argv       []string
}

func parse(args []string) (options, error) {
	o, args, err := parseFlags(args)
	if err != nil {
		return o, err
	}
	if len(args) < 3 {
		return o, errors.New("no agent command")
	}
	o.path, o.argv = args[1], args[2:]
	return o, nil
}

// parseFlags reads the flags up to "--" (or the end) and returns what is
// left.
func parseFlags(args []string) (options, []string, error) {
	o := options{grace: 2 * time.Second, uid: -1, gid: -1}
	for len(args) > 0 && args[0] != "--" {
		if len(args) < 2 {
			return o, nil, errors.New("flag " + args[0] + " has no value")
		}
		name, v := args[0], args[1]
		args = args[2:]
		var err error
		switch name {
		case "-grace":
			o.grace, err = time.ParseDuration(v)
		case "-uid":
			o.uid, err = strconv.Atoi(v)
		case "-gid":
			o.gid, err = strconv.Atoi(v)
		case "-hide":
			o.hide = append(o.hide, v)
		case "-keep":
			o.keep = append(o.keep, v)
		case "-home":
			o.home = v
		default:
			err = errors.New("unknown flag " + name)
		}
		if err != nil {
			return o, nil, err
		}
	}
	if o.grace <= 0 {
		o.grace = 2 * time.Second
	}
	return o, args, nil
}

// status writes the init's one line on f: "ok", "refused: why" or
// "start: errno" (package contain reads it).
func status(f *os.File, kind, msg string) {
	f.WriteString(kind + ": " + msg + "\n")
}

// under reports whether path is dir or inside it.
func under(path, dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return path == dir || strings.HasPrefix(path, dir+"/")
}
