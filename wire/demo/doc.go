// Package demo is `askbridge demo`: a scripted ACP agent that asks its
// questions through askbridge's _askbridge/ask, and a terminal client that
// answers the permission requests askbridge turns them into. Run together
// through the real adapter, they show a whole question round with no
// editor and no API key.
//
// Both sides are written as a Go user of ACP would write them, on
// acp-go-sdk: the agent implements acp.Agent on an acp.AgentSideConnection
// and calls the extension method with CallExtension; the client implements
// acp.Client on an acp.ClientSideConnection.
package demo
