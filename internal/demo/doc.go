// Package demo is `askbridge demo`: a scripted ACP agent that asks its
// questions through askbridge's _askbridge/ask, and a terminal client that
// answers the permission requests askbridge turns them into. Run together
// through the real adapter, they show a whole question round with no
// editor and no API key.
package demo
