package main

import (
	"flag"
)

func (o *proxyOptions) containFlags(fs *flag.FlagSet) {
	fs.Var(&o.contain, "contain", "run the agent in a container of its own (Linux user, PID and mount namespaces), where it cannot see or signal askbridge, the hub or your other processes, and ends with askbridge: auto (where the system allows; else say so at start and on every approval card), on (refuse to start without), or off")
}
