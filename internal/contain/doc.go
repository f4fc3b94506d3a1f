// Package contain starts an agent in a container of its own, so that
// nothing the agent starts can reach askbridge, the hub or the user's other
// processes, and the whole tree ends when askbridge ends, however it ends.
//
// On Linux, where the system allows unprivileged user namespaces, the agent
// runs in new user, PID and mount namespaces (start_linux.go). Their first
// process is askbridge itself again, in a hidden mode (InitArg, package nsinit):
// the namespace's init. It mounts a /proc of its own, shows askbridge's
// folders empty (a tmpfs over each, the agent's ask socket bound back, their
// parents in the home bound onto themselves so that they cannot be renamed), starts
// the agent in a session of its own and reaps. When the init ends, the kernel
// ends every process in the namespace; the init ends with askbridge
// (PR_SET_PDEATHSIG). The user's id is mapped to itself, so files keep their
// owner and the agent sees the user's home, project and network as they are.
//
// The init costs a Go program's start, so askbridge starts it before it
// needs it: package prestart's init function, which Go runs before most of
// askbridge's packages, starts it when the command line runs the relay
// with an agent (early_linux.go). That init enters its namespaces and
// waits; Start sends it what it would have been started with, the agent's
// environment and folder, and its pipes (SCM_RIGHTS, on a socket only the
// two hold), and the agent starts within a few milliseconds instead of a
// Go start later. Without one (a wrong guess, another caller), Start
// starts an init as above.
//
// Elsewhere, or where the system refuses (user namespaces disabled, as
// Ubuntu's AppArmor restriction does for unconfined programs), Start returns
// an error wrapping ErrRefused, and askbridge runs the agent as before and
// says so.
package contain
