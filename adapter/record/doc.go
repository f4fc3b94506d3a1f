// Package record is what askbridge adds to the relay's recording
// (--record, package adapter/relay's RecordHooks): the answer desk's
// resolutions, which a replay needs since neither side said them
// (DeskResolution, read back by package conformance), and no secret
// answer anywhere (secret.go). It knows the board and the relay, nothing
// of the bridge, which installs it on its relay and tells it the secrets
// typed (Conceal).
package record
