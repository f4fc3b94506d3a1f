// Package nextprompt is what a session's next prompt gets besides the
// user's words. Some things the model should read arrive when no tool
// call of its is open to carry them: a denial's reason (ACP's permission
// response has no field for it), or an answer given after the agent's MCP
// host stopped waiting for it (a late answer). Each waits in the session's
// Queue and goes as a text block first in the user's next session/prompt
// (notes first, then the late answers in one block), or, with AsPrompt, a
// late answer goes as a prompt of askbridge's own once no turn runs in the
// session, the client's prompts sent meanwhile held until it ends. Each is
// kept in the notes store too (store.go), so a new askbridge serving the
// session hands it on if this one is gone. It knows the relay and the
// notes store, nothing of the bridge, which hands it each session/prompt.
package nextprompt
