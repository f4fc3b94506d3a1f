// Package layout holds no code: its tests hold the house's size caps over
// the whole module (no Go file over 300 lines, no function over 80 but the
// relay's byte scanner, cmd/askbridge within 1,500 lines of production
// code), so that a cap is a failing test, not a reviewer's memory; and
// they hold the docs to the tests they cite (every test named exists, and
// every row of docs/security.md's tables names one or says "not tested");
// and that no file is picked by the processor, which lets make cross vet
// amd64 alone.
package layout
