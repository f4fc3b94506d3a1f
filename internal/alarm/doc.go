// Package alarm makes attacks visible without letting them flood the log:
// what askbridge refuses because someone tried (another user's connection,
// a wrong pairing code, a service worker the hub did not serve) is
// counted, logged at most once a second per kind with the count since the
// last line, and summed up when the process ends (Summary).
package alarm
