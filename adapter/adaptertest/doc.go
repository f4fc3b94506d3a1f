// Package adaptertest runs the bridge between a scripted client and a
// scripted agent, for the flow tests of the dialects: each dialect's
// tests, beside it under adapter/dialect, send the lines its agent sends
// and check what the client is asked and what the agent is answered.
//
// It is built on the exported API of adapter and on acpflow, the lines
// sent and read, which the bridge's own tests share (they cannot import
// adaptertest, which imports adapter). It is imported only by external
// test packages
// (package cursor_test and the like): a dialect's own code never imports
// the bridge (adapter/dialect/boundary_test.go). A test that needs only a
// host, not a bridge, uses adapter/dialect/dialecttest.Host instead.
package adaptertest
