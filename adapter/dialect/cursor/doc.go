// Package cursor is the dialect of Cursor's agent acp: the blocking
// extension requests cursor/ask_question, cursor/create_plan and
// cursor/update_todos.
package cursor
