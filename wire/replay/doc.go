// Package replay is what `askbridge replay` and `askbridge record-fixture`
// do with conformance fixtures: play them against an askbridge binary
// (checking or updating their want sections), play a fixture's agent, and
// turn a recording into a new fixture.
package replay
