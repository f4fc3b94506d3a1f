// Package approvals puts the agent's own permission requests on the board,
// where the desk, the hub and the notifiers can answer them.
package approvals
