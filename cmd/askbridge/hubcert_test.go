package main

import (
	"testing"

	"github.com/askbridge/askbridge/internal/testcert"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A certificate before its NotBefore is refused as an expired one is: a
// browser would refuse it too, and a clock set wrong should be told.
func TestHubRefusesACertificateNotYetValid(t *testing.T) {
	cert, key := testcert.NotYetValid(t)
	_, _, err := (&hubListen{addr: "0.0.0.0:7683", certFile: cert, keyFile: key}).check()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--tls-cert "+cert+" is not valid before")
}
