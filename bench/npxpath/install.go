//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// install lays out a project with the launcher installed as npm installs
// it from the release's packages: the launcher package, this platform's
// package with a copy of bin, and the bin link npx runs. It returns the
// project's directory.
func install(bin, launcher string) (string, error) {
	cpu := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if cpu == "" {
		return "", fmt.Errorf("no npm package for %s", runtime.GOARCH)
	}
	const version = "0.0.0-bench"
	platform := "@askbridge/" + runtime.GOOS + "-" + cpu
	dir, err := os.MkdirTemp("", "npxpath-")
	if err != nil {
		return "", err
	}
	nm := filepath.Join(dir, "node_modules")
	js := filepath.Join(nm, "askbridge", "bin", "askbridge.js")
	steps := []func() error{
		func() error {
			return writeJSON(filepath.Join(dir, "package.json"), map[string]any{
				"name": "npxpath-bench", "private": true, "dependencies": map[string]string{"askbridge": version}})
		},
		func() error { return copyFile(filepath.Join(launcher, "bin", "askbridge.js"), js, 0o755) },
		func() error {
			return writeJSON(filepath.Join(nm, "askbridge", "package.json"), map[string]any{
				"name": "askbridge", "version": version, "bin": map[string]string{"askbridge": "bin/askbridge.js"},
				"optionalDependencies": map[string]string{platform: version}})
		},
		func() error { return copyFile(bin, filepath.Join(nm, platform, "bin", "askbridge"), 0o755) },
		func() error {
			return writeJSON(filepath.Join(nm, platform, "package.json"), map[string]any{
				"name": platform, "version": version, "os": []string{runtime.GOOS}, "cpu": []string{cpu}})
		},
		func() error { return os.MkdirAll(filepath.Join(nm, ".bin"), 0o755) },
		func() error {
			return os.Symlink("../askbridge/bin/askbridge.js", filepath.Join(nm, ".bin", "askbridge"))
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("installing the launcher: %w", err)
		}
	}
	return dir, nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func copyFile(from, to string, mode os.FileMode) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, mode)
}
