// Package cardcontext keeps what a question's card says of the moment it
// was asked (permission.Context): what the agent said just before it asked
// and its plan, followed on the relay for each session, with the secrets
// typed so far hidden. It knows the relay and the board's types, nothing
// of the bridge, which follows its relay with it and reads a set's
// context when it asks.
package cardcontext
