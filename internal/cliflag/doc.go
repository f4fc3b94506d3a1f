// Package cliflag parses askbridge's flags and prints their usage the way
// its docs write them (two dashes, a duration's error saying what it
// wants), and finds the subcommand a mistyped word meant.
package cliflag
