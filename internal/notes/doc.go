// Package notes keeps what askbridge promised to hand an agent with the
// next prompt of a session — a denial's reason, an answer given after the
// agent stopped waiting — past the askbridge process that took it. An
// editor or acpx may start a new askbridge for every prompt (acpx 0.1.15
// does: initialize, then session/load), and a note in memory would die
// with the old one.
//
// A Store is a folder of this user's alone (0700), one sub-folder per
// session, one file (0600, written whole by a rename) per note. It is
// bounded (notes and bytes per session and in all; the oldest go first)
// and notes expire. A note is delivered once: whoever removes its file
// first owns it, so two askbridges serving one session never both hand it
// on. The caller keeps secrets out: a Store writes what it is given.
package notes
