// Package layout holds no code: its test holds the house's size caps over
// the whole module (no Go file over 300 lines, no function over 80 but the
// relay's byte scanner, cmd/askbridge within 1,500 lines of production
// code), so that a cap is a failing test, not a reviewer's memory.
package layout
