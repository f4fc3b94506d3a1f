//go:build unix

package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sshBin finds an OpenSSH program, in PATH or in /usr/sbin (sshd is not
// in a user's PATH on Debian); "" when it is not installed.
func sshBin(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if p := filepath.Join("/usr/sbin", name); fileExists(p) {
		return p
	}
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// startSSHD runs OpenSSH's sshd on a free loopback port of its own, with
// a throwaway host key, letting in the holder of the returned client key
// as the current user. It is stopped, with its children, at cleanup.
func startSSHD(t *testing.T, ctx context.Context, dir, sshd, keygen string) (port int, key string) {
	for _, k := range []string{"host_key", "user_key"} {
		out, err := exec.CommandContext(ctx, keygen, "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, k)).CombinedOutput()
		require.NoError(t, err, string(out))
	}
	pub, err := os.ReadFile(filepath.Join(dir, "user_key.pub"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	config := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
PidFile none
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowStreamLocalForwarding yes
StreamLocalBindUnlink yes
LogLevel ERROR
`, port, filepath.Join(dir, "host_key"), filepath.Join(dir, "authorized_keys"))
	conf := filepath.Join(dir, "sshd_config")
	require.NoError(t, os.WriteFile(conf, []byte(config), 0o600))
	if os.Getuid() == 0 && !fileExists("/run/sshd") {
		// Debian's sshd wants its privilege separation folder, which a
		// container without systemd has not made.
		require.NoError(t, os.MkdirAll("/run/sshd", 0o755))
	}
	cmd := exec.CommandContext(ctx, sshd, "-D", "-e", "-f", conf)
	var logs strings.Builder // the readiness probe below is logged too
	cmd.Stderr = &logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		if t.Failed() {
			t.Logf("sshd said:\n%s", logs.String())
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("sshd did not listen")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return port, filepath.Join(dir, "user_key")
}

// Beyond one machine: an askbridge "on the far side" of an SSH connection
// reaches the hub through the socket `ssh -R` forwards, with OpenSSH's own
// server and client on 127.0.0.1; its question is answered at the hub and
// its agent gets the answer.
func TestE2EHubThroughSSH(t *testing.T) {
	sshd, ssh, keygen := sshBin("sshd"), sshBin("ssh"), sshBin("ssh-keygen")
	if sshd == "" || ssh == "" || keygen == "" {
		t.Skip("needs OpenSSH's sshd, ssh and ssh-keygen (Debian: apt-get install openssh-server openssh-client)")
	}
	dir, err := os.MkdirTemp("", "abssh") // short: a socket's path is bounded
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	port, key := startSSHD(t, ctx, dir, sshd, keygen)

	sock, remote := filepath.Join(dir, "hub.sock"), filepath.Join(dir, "far", "hub.sock")
	require.NoError(t, os.Mkdir(filepath.Dir(remote), 0o700))
	h := startHubProc(t, sock)
	tunnel := exec.CommandContext(ctx, ssh, "-N", "-p", fmt.Sprint(port), "-i", key,
		"-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "ExitOnForwardFailure=yes", "-o", "LogLevel=ERROR",
		"-R", remote+":"+sock, "127.0.0.1")
	tunnel.Stderr = os.Stderr
	require.NoError(t, tunnel.Start())
	t.Cleanup(func() { tunnel.Process.Kill(); tunnel.Wait() })
	for deadline := time.Now().Add(15 * time.Second); !fileExists(remote); {
		if time.Now().After(deadline) {
			t.Fatal("ssh -R made no socket on the far side")
		}
		time.Sleep(20 * time.Millisecond)
	}

	t.Setenv("ASKBRIDGE_HUB", remote) // the far side's askbridge
	c := startClient(t)
	s := c.hubSetup(filepath.Join(dir, "far"))
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Deploy from afar?", "Deploy", false, "yes", "no")}})
	req := c.permissionRequest()
	sets := h.waitSets(1, 10*time.Second)
	assert.Equal(t, filepath.Join(dir, "far"), sets[0].CWD)
	assert.Equal(t, "scripted-agent", sets[0].Instance.Agent)
	h.do("POST", "/question/"+sets[0].ID+"/reply", `{"answers":[["no"]]}`, nil)
	withdrawn := c.next(func(m map[string]any) bool { return m["method"] == "$/cancel_request" })
	assert.Equal(t, req["id"], withdrawn["params"].(map[string]any)["requestId"])
	assert.True(t, strings.Contains(c.agentSaw(), `"Deploy from afar?":"no"`), "the far agent gets the hub's answer")
}
