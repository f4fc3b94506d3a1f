package desk

import "net/http"

// DeviceID is the paired device making r, for a route of Options.Routes
// (behind the session check): "" for the terminal inbox and anything not
// paired.
func DeviceID(r *http.Request) string { return device(r).ID }
