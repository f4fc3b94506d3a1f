// Package pairing is who may use askbridge's pages: the browsers the user
// paired, each a device with a session and, for approvals, a passkey.
//
// A device pairs with a code the user reads on the hub's (or the desk's)
// own terminal: short-lived (CodeTTL), single use, and never written
// anywhere else. The browser trades it for a session secret in two halves,
// an HttpOnly cookie and a key the page keeps in its origin's storage
// (cookies ignore ports, storage does not), and sends both with every
// request. Devices keeps only a hash of the two, in a 0600 file when it
// has one, so a restart keeps the paired devices and whoever reads the
// file cannot use them. A device's passkey (WebAuthn) is registered while
// it pairs, with the code still in hand, never afterwards: a stolen
// session cannot add one of its own.
package pairing
