package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/route/hub"
)

func TestQuestionFlags(t *testing.T) {
	parse := func(env string, args ...string) (*proxyOptions, error) {
		if env == "unset" {
			t.Setenv(minAnswerEnv, "")
			// t.Setenv restores the old value at the end; unset it for now.
			unsetenv(t, minAnswerEnv)
		} else {
			t.Setenv(minAnswerEnv, env)
		}
		fs, o := proxyFlags()
		require.NoError(t, fs.Parse(args))
		return o, o.check()
	}
	o, err := parse("unset")
	require.NoError(t, err)
	assert.Equal(t, adapter.DefaultMinAnswerTime, o.minAnswerTime)
	assert.Equal(t, adapter.QuestionsClient, o.questions)

	o, err = parse("0")
	require.NoError(t, err)
	assert.Zero(t, o.minAnswerTime, "the environment turns the guard off")
	o, err = parse("0", "--min-answer-time=1s")
	require.NoError(t, err)
	assert.Equal(t, time.Second, o.minAnswerTime, "the flag wins")

	_, err = parse("fast")
	assert.EqualError(t, err, `ASKBRIDGE_MIN_ANSWER_MS="fast": want a number of milliseconds, 0 or more`)
	_, err = parse("0", "--questions=desk", "--hub=off")
	assert.EqualError(t, err, "--questions desk: nothing could answer them; add --desk ADDR or --hub SOCKET (or use --questions mirror)")
	// Under --hub auto a hub may be running: the refusal names the socket
	// it would report on, and how to make that hub the one that answers.
	sock := filepath.Join(t.TempDir(), "hub.sock")
	t.Setenv(hub.SocketEnv, sock)
	for _, flag := range []string{"--questions=desk", "--approvals=desk"} {
		_, err = parse("0", flag)
		require.Error(t, err, flag)
		assert.Contains(t, err.Error(), "--hub auto reports to a hub only while one runs at "+sock+"; add --hub "+sock+" (that hub)", flag)
		_, err = parse("0", flag, "--hub="+sock)
		assert.NoError(t, err, "the socket the refusal names is taken")
	}
	o, err = parse("0", "--questions=desk", "--desk=127.0.0.1:0")
	require.NoError(t, err)
	assert.Equal(t, adapter.QuestionsDesk, o.questions)
	_, err = parse("0", "--render=yesno")
	require.NoError(t, err)
	_, err = parse("0", "--render=buttons")
	assert.EqualError(t, err, `--render "buttons": want auto, permission or yesno`)
}

func unsetenv(t *testing.T, name string) {
	t.Helper()
	require.NoError(t, os.Unsetenv(name))
}
