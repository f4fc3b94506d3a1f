//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// routeTree is pid and its descendants, parents first, without the
// processes running agentExe and theirs.
func routeTree(pid int, agentExe string) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := ppid(p); pp > 0 {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		if exe, _ := os.Readlink("/proc/" + strconv.Itoa(p) + "/exe"); exe == agentExe {
			return
		}
		out = append(out, p)
		for _, c := range children[p] {
			walk(c)
		}
	}
	walk(pid)
	return out
}

// ppid reads the parent's pid from /proc/PID/stat, after the command's
// closing parenthesis (a command may hold spaces and parentheses).
func ppid(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// memory is a process's resident bytes (VmRSS) and its private part
// (RssAnon: the rest is the pages of its files, shared by every process
// running them), as relaybench reports askbridge's.
func memory(pid int) (rss, private int64, err error) {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "RssAnon") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/status: %s: %w", pid, k, err)
		}
		if k == "VmRSS" {
			rss = kb << 10
		} else {
			private = kb << 10
		}
	}
	return rss, private, sc.Err()
}

// name is what runs in pid: its executable's base name, and for a Node
// the script it runs or the title it took (npm's is "npm exec ...").
func name(pid int) string {
	exe, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	n := filepath.Base(exe)
	if n != "node" {
		return n
	}
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	switch {
	case strings.HasPrefix(args[0], "npm "):
		return "node (npm)"
	case len(args) > 1:
		return "node (" + filepath.Base(args[1]) + ")"
	}
	return n
}
