// Package peercred says who is at the other end of a Unix socket, as the
// kernel tells it (the peer cannot choose): its uid and its pid
// (SO_PEERCRED on Linux; LOCAL_PEERCRED and LOCAL_PEERPID on macOS);
// package proctree walks that process's parents. Elsewhere (Windows, the
// other BSDs) Supported is false and Get fails.
//
// The hub lets only this user's processes in, and refuses answers from a
// process below an askbridge (inside an agent's process tree); the inbox
// and askbridge refuse a socket served by another uid.
package peercred
