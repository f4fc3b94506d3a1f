//go:build linux || darwin

package proctree

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadSaysWhoThisProcessIs(t *testing.T) {
	p, err := Read(os.Getpid())
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), p.PID)
	assert.Equal(t, os.Getppid(), p.PPID)
	assert.Equal(t, syscall.Getpgrp(), p.PGID)
	assert.NotEmpty(t, p.Name)
	assert.False(t, p.Zombie)
	_, err = Read(1<<22 + 12345)
	assert.Error(t, err, "no such process")
}

func TestDescendsWalksTheParents(t *testing.T) {
	parent, err := Parent(os.Getpid())
	require.NoError(t, err)
	assert.Equal(t, os.Getppid(), parent)

	in, err := Descends(os.Getpid(), is(os.Getppid()))
	require.NoError(t, err)
	assert.True(t, in, "a child is below its parent")
	in, err = Descends(os.Getppid(), is(os.Getpid()))
	require.NoError(t, err)
	assert.False(t, in, "a parent is not below its child")

	in, err = Descends(1<<22+12345, is(os.Getpid()))
	assert.Error(t, err)
	assert.True(t, in, "a process that cannot be looked up is not known to be outside")
}

func is(root int) func(int) bool { return func(pid int) bool { return pid == root } }
