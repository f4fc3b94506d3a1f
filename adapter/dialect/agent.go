package dialect

import (
	"slices"
	"strings"
)

// Targeted is an Advertiser whose defaults only its own agent reads (Qwen
// Code's "qwen.askUserQuestion", Kiro's kiro.userInput). The client's
// initialize reaches the agent before its answer names the agent, so the
// bridge knows it from its command line alone (CommandNames): a targeted
// default goes to its own agent, and to a command that names no agent
// askbridge knows (a wrapper script it cannot see through), but never to
// another known agent.
type Targeted interface {
	Advertiser
	// Agent is the agent the defaults are for, one of KnownAgents.
	Agent() string
}

// KnownAgents are the agents askbridge recognises on a command line, each
// by the word that names it in its program or package (claude-agent-acp,
// @qwen-code/qwen-code, kiro-cli, cursor-agent).
var KnownAgents = []string{
	"auggie", "claude", "codex", "copilot", "cursor", "devin", "gemini",
	"goose", "grok", "kimi", "kiro", "opencode", "qwen",
}

// AdvertiseTo reports whether a default for agent goes to the agent argv
// starts: argv is that agent, or names no agent askbridge knows.
func AdvertiseTo(agent string, argv []string) bool {
	names := CommandNames(argv)
	return len(names) == 0 || slices.Contains(names, agent)
}

// CommandNames are the known agents argv's command names, nil when it
// names none (or argv is empty).
func CommandNames(argv []string) []string {
	var names []string
	for _, w := range CommandWords(argv) {
		if slices.Contains(KnownAgents, w) && !slices.Contains(names, w) {
			names = append(names, w)
		}
	}
	return names
}

// runners start the program or package named by their first operand.
var runners = []string{
	"node", "nodejs", "npx", "npm", "bunx", "bun", "deno", "pnpm", "pnpx", "yarn",
	"uvx", "uv", "pipx", "python", "python3", "env",
}

// runnerVerbs are a runner's words before the operand (`npm exec`,
// `pnpm dlx`, `uv run`, `bun x`).
var runnerVerbs = []string{"run", "exec", "dlx", "x", "tool"}

// CommandWords are the lower-case words that name the program argv starts:
// the program's file name, or for a file inside node_modules its package;
// for a runner such as npx, node or env, the words of what it starts.
// Arguments further on are not read: `kiro-cli acp --model claude-sonnet`
// is not Claude, and a directory on the way is not the program
// (/home/claude/bin/qwen is Qwen). Cursor's CLI, `agent acp`, reads as
// "cursor".
func CommandWords(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	prog, file := programName(argv[0])
	base := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(file, ".exe"), ".cmd"))
	if slices.Contains(runners, base) {
		for i, a := range argv[1:] {
			if strings.HasPrefix(a, "-") || slices.Contains(runnerVerbs, a) || base == "env" && strings.Contains(a, "=") {
				continue
			}
			return CommandWords(argv[1+i:])
		}
		return nil
	}
	words := splitWords(prog)
	if base == "agent" && slices.Contains(argv[1:], "acp") {
		words = append(words, "cursor")
	}
	return words
}

// programName is p's file name, and the program it names: the file name,
// or for a file inside node_modules the package it belongs to
// (@qwen-code/qwen-code for …/node_modules/@qwen-code/qwen-code/cli.js,
// opencode for …/node_modules/.bin/opencode); either slash separates.
func programName(p string) (prog, file string) {
	parts := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
	if len(parts) == 0 {
		return "", ""
	}
	file = parts[len(parts)-1]
	i := -1 // the last node_modules: the package itself, not its host's
	for j, part := range parts {
		if part == "node_modules" {
			i = j
		}
	}
	switch {
	case i < 0 || i+1 >= len(parts)-1 || parts[i+1] == ".bin":
		return file, file
	case strings.HasPrefix(parts[i+1], "@"):
		return parts[i+1] + "/" + parts[i+2], file
	}
	return parts[i+1], file
}

// splitWords are s's runs of letters and digits, in lower case.
func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
}
