// Package approvalstest is an agent's approval of a tool call as ACP
// agents send it, for the tests of the approvals dialect and of the
// bridge: one definition for both.
package approvalstest
