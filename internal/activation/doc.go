// Package activation takes the listening sockets a service manager hands a
// process it starts (systemd's socket activation, the sd_listen_fds
// protocol: LISTEN_FDS sockets from fd 3, for the process LISTEN_PID
// names). The manager keeps its own copy of each socket bound for as long
// as the socket unit is active, so the address never goes free while the
// process restarts, crashes or is killed: no other user can take it
// meanwhile.
package activation
