// Package qwen is the dialect of Qwen Code: a session/request_permission
// carrying the questions, answered in a top-level answers object.
package qwen
