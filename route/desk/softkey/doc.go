// Package softkey is a passkey in software, for the tests and the
// benchmark that speak to the desk's and the hub's page as a browser
// does: a P-256 credential made for one origin, signing what the page is
// asked to sign, with or without user verification, so that the server's
// own WebAuthn checks are what is exercised. Nothing in askbridge's binary
// imports it.
package softkey
