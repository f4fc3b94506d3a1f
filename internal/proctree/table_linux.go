package proctree

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Read is pid's entry in /proc/PID/stat.
func Read(pid int) (Proc, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Proc{}, err
	}
	return parseStat(pid, string(b))
}

// List is every process in /proc.
func List() ([]Proc, error) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		return nil, err
	}
	if len(stats) == 0 {
		return nil, ErrUnsupported // no /proc mounted
	}
	out := make([]Proc, 0, len(stats))
	for _, path := range stats {
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		b, err := os.ReadFile(path)
		if err != nil {
			continue // it ended meanwhile
		}
		if p, err := parseStat(pid, string(b)); err == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// parseStat reads "pid (comm) state ppid pgrp session ...": comm may hold
// spaces and parentheses, so the fields start after its last ')'.
func parseStat(pid int, s string) (Proc, error) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open || end+2 > len(s) {
		return Proc{}, fmt.Errorf("unreadable /proc/%d/stat", pid)
	}
	f := strings.Fields(s[end+2:])
	if len(f) < 4 {
		return Proc{}, fmt.Errorf("unreadable /proc/%d/stat", pid)
	}
	p := Proc{PID: pid, Name: s[open+1 : end], Zombie: f[0] == "Z" || f[0] == "X"}
	var err error
	for i, v := range []*int{&p.PPID, &p.PGID, &p.SID} {
		if *v, err = strconv.Atoi(f[i+1]); err != nil {
			return Proc{}, fmt.Errorf("unreadable /proc/%d/stat: %w", pid, err)
		}
	}
	return p, nil
}
