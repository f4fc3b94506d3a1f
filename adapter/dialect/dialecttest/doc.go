// Package dialecttest is the one fake dialect.Host the dialects' tests
// share: a claim made with it reads the fields its test sets, so a
// dialect's flow through Claim, Questions and Reply is tested beside the
// dialect, without the bridge. It is no dialect; it imports only
// adapter/dialect, adapter/relay and permission, as a dialect does.
package dialecttest
