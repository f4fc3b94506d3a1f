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
// Elsewhere, or where the system refuses (user namespaces disabled, as
// Ubuntu's AppArmor restriction does for unconfined programs), Start returns
// an error wrapping ErrRefused, and askbridge runs the agent as before and
// says so.
package contain
