package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// The licence reaches every way askbridge is handed out: the repository,
// each GoReleaser archive, each npm package.
func TestLicenceIsApache2Everywhere(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	text, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	require.NoError(t, err, "LICENSE at the repository's root")
	assert.Contains(t, string(text), "Apache License\n                           Version 2.0, January 2004")

	yaml, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	require.NoError(t, err)
	_, archives, ok := strings.Cut(string(yaml), "\narchives:")
	require.True(t, ok, ".goreleaser.yaml has no archives")
	_, files, ok := strings.Cut(archives, "    files:\n")
	require.True(t, ok, "the archives list no files")
	assert.Contains(t, files[:strings.Index(files+"\n\n", "\n\n")], "- LICENSE", "every archive holds LICENSE")
}

// npm/build.mjs run on a one-platform dist: every package it packs says
// Apache-2.0 and carries the LICENSE file.
func TestNpmPackagesCarryTheLicence(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"node", "npm", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH", tool)
		}
	}
	dist := t.TempDir()
	binary := filepath.Join(dist, "askbridge")
	testenv.WriteExecutable(t, binary, []byte("#!/bin/sh\n"))
	require.NoError(t, os.WriteFile(filepath.Join(dist, "metadata.json"), []byte(`{"version":"0.0.1-test"}`), 0o644))
	artifacts := `[{"type":"Binary","goos":"linux","goarch":"amd64","path":"` + filepath.ToSlash(binary) + `","extra":{"ID":"askbridge"}}]`
	require.NoError(t, os.WriteFile(filepath.Join(dist, "artifacts.json"), []byte(artifacts), 0o644))
	cmd := exec.Command("node", filepath.Join("..", "..", "npm", "build.mjs"), "--allow-missing", dist)
	cmd.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(dist, "cache"), "npm_config_update_notifier=false")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	tarballs, err := filepath.Glob(filepath.Join(dist, "npm", "*.tgz"))
	require.NoError(t, err)
	require.Len(t, tarballs, 2, "the askbridge package and linux-x64's")
	for _, tgz := range tarballs {
		list, err := exec.Command("tar", "tzf", tgz).Output()
		require.NoError(t, err)
		assert.Contains(t, strings.Fields(string(list)), "package/LICENSE", tgz)
		manifest, err := exec.Command("tar", "xzOf", tgz, "package/package.json").Output()
		require.NoError(t, err)
		assert.Contains(t, string(manifest), `"license": "Apache-2.0"`, tgz)
	}
}
