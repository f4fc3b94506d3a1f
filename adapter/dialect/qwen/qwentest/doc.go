// Package qwentest is Qwen Code's question lines as it sends them, for
// the tests of the Qwen dialect and of the bridge: one definition for both.
package qwentest
