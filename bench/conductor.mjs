// The thinkwell conductor (@thinkwell/conductor) run with no proxies: the
// editor on this process's stdio, the agent as its one component.
// bench/run.sh measures it next to askbridge. The package is a library with
// no command of its own, so this file is the few lines a user would write:
// a client connector on stdio built like the package's own StdioConnector
// (readline, JSON.parse per line, JSON.stringify per message), and
// fromCommands with the agent's argv.
//
// Usage: node bench/conductor.mjs [--] AGENT [ARGS...]
import { createInterface } from "node:readline";
import { Conductor, fromCommands } from "@thinkwell/conductor";

const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();
if (argv.length === 0) {
  console.error("usage: node conductor.mjs [--] AGENT [ARGS...]");
  process.exit(2);
}

const editor = {
  async connect() {
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    return {
      send(message) {
        process.stdout.write(JSON.stringify(message) + "\n");
      },
      messages: {
        async *[Symbol.asyncIterator]() {
          for await (const line of lines) {
            if (line.trim()) yield JSON.parse(line);
          }
        },
      },
      async close() {
        lines.close();
      },
    };
  },
};

const conductor = new Conductor({
  instantiator: fromCommands([{ command: argv[0], args: argv.slice(1) }]),
});
await conductor.connect(editor);
process.exit(0);
