// Package prestart starts the container's init for askbridge's agent
// before askbridge has read its own flags, so that the init's start, a Go
// program's, runs while askbridge itself starts (package contain's Start
// then hands it its orders).
//
// Its init function decides and starts, so it runs before most of
// askbridge: Go initializes packages in the order of their import paths
// as far as their imports allow, and this one imports syscall alone (and
// package ctty, which imports syscall alone), so it comes right after
// package syscall, before os, time and everything that needs them. Hence
// the raw system calls: the command line comes from /proc/self/cmdline,
// the binary is /proc/self/exe.
package prestart
