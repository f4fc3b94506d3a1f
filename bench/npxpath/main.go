//go:build linux

// Command npxpath measures what each way of starting askbridge costs: the
// binary itself, the npm launcher run by each Node given, and
// `npx --no-install askbridge` with each Node. For every route it times
// spawn to the first initialize response (the editor's wait before
// anything else), and then sums the resident memory of the process tree the
// route leaves running for the whole session, the agent's own processes
// left out: the same agent answers in every route. bench/run.sh runs it.
//
//	npxpath -askbridge bin/askbridge -launcher npm/askbridge -node node -node PATH/TO/node22 -- AGENT...
//
// The launcher is installed as npm would into a temporary project
// (node_modules/askbridge, node_modules/@askbridge/<platform> holding a
// copy of the binary, node_modules/.bin/askbridge), where npx --no-install
// finds it without a registry.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// nodes collects the repeatable -node flag.
type nodes []string

func (n *nodes) String() string     { return strings.Join(*n, ",") }
func (n *nodes) Set(v string) error { *n = append(*n, v); return nil }

// route is one way of starting askbridge.
type route struct {
	name string
	argv []string
	env  []string // added to the environment
}

func main() {
	bin := flag.String("askbridge", "bin/askbridge", "the askbridge binary")
	launcher := flag.String("launcher", "npm/askbridge", "the launcher package's directory")
	runs := flag.Int("runs", 10, "starts per route (the median is printed)")
	var nodeBins nodes
	flag.Var(&nodeBins, "node", "a Node binary to run the launcher and npx with; repeatable")
	flag.Parse()
	agent := flag.Args()
	if len(agent) == 0 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: npxpath [-askbridge BIN] [-launcher DIR] [-node NODE]... [-runs N] -- AGENT...")
		os.Exit(2)
	}
	// The routes run in the project's directory.
	*bin = abs(*bin)
	if strings.ContainsRune(agent[0], filepath.Separator) {
		agent[0] = abs(agent[0])
	}
	project, err := install(*bin, *launcher)
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(project)
	routes := []route{{name: "askbridge (the binary)", argv: []string{*bin}}}
	npx, npxErr := exec.LookPath("npx")
	for _, n := range nodeBins {
		if strings.ContainsRune(n, filepath.Separator) {
			n = abs(n)
		}
		node, err := exec.LookPath(n)
		if err != nil {
			fail(err)
		}
		out, err := exec.Command(node, "--version").Output()
		if err != nil {
			fail(fmt.Errorf("%s --version: %w", node, err))
		}
		v := strings.TrimSpace(string(out))
		js := filepath.Join(project, "node_modules", "askbridge", "bin", "askbridge.js")
		routes = append(routes, route{name: "launcher, Node " + v, argv: []string{node, js}})
		if npxErr != nil {
			continue
		}
		// npx runs under the first node on PATH, and so does the launcher.
		path := "PATH=" + filepath.Dir(node) + string(os.PathListSeparator) + os.Getenv("PATH")
		routes = append(routes, route{name: "npx --no-install askbridge, Node " + v,
			argv: []string{npx, "--no-install", "askbridge"}, env: []string{path, "npm_config_update_notifier=false"}})
	}
	if npxErr != nil {
		fmt.Fprintln(os.Stderr, "npxpath: no npx on PATH: the npx routes are left out")
	}

	fmt.Printf("Starting askbridge, %d starts a route (medians): spawn to the first initialize response; then\n", *runs)
	fmt.Println("the resident memory (RSS, and its private part, RssAnon) of the processes the route keeps for the session, the agent's left out:")
	var base sample
	for i, r := range routes {
		var got []sample
		for range *runs {
			s, err := measure(r, agent, project)
			if err != nil {
				fail(fmt.Errorf("%s: %w", r.name, err))
			}
			got = append(got, s)
		}
		s := median(got)
		if i == 0 {
			base = s
		}
		extra := ""
		if i > 0 {
			extra = fmt.Sprintf("  (+%.0f ms, +%.1f MiB)", ms(s.ready-base.ready), mib(s.rss-base.rss))
		}
		fmt.Printf("  %-44s %6.1f ms  %6.1f MiB (%5.1f)  %s%s\n", r.name, ms(s.ready), mib(s.rss), mib(s.private), s.procs, extra)
	}
}

func median(s []sample) sample {
	out := s[len(s)/2]
	ready := make([]time.Duration, len(s))
	rss := make([]int64, len(s))
	private := make([]int64, len(s))
	for i, x := range s {
		ready[i], rss[i], private[i] = x.ready, x.rss, x.private
	}
	slices.Sort(ready)
	slices.Sort(rss)
	slices.Sort(private)
	out.ready, out.rss, out.private = ready[len(s)/2], rss[len(s)/2], private[len(s)/2]
	return out
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		fail(err)
	}
	return a
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func mib(b int64) float64        { return float64(b) / (1 << 20) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "npxpath:", err)
	os.Exit(1)
}
