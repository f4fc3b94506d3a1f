// Package testenv tells tests what they can count on where they run.
// `make test-windows` runs the Windows build's tests under Wine, which
// lacks some of what Windows 10 has; a test that needs one of those skips
// itself there, saying which, rather than failing for Wine's sake. Only
// tests import this package. Imports lists a package's imports for the
// tests that hold the boundaries between packages.
package testenv
