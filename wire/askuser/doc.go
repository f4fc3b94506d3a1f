// Package askuser is how `askbridge ask` asks: in the editor through the
// running askbridge's ask socket, or in the terminal (interactively on a
// TTY, else numbered prompts on stderr).
package askuser
