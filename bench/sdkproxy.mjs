// A straightforward ACP proxy on the official TypeScript SDK
// (@agentclientprotocol/sdk), written the way its README suggests: an agent
// app faces the editor, a client app faces the agent, and every method is
// forwarded through the SDK's typed handlers (params parsed by the SDK's
// schemas), extension methods through its "*" fallbacks. bench/run.sh
// measures it next to askbridge, as the relay a user would otherwise write.
//
// Usage: node bench/sdkproxy.mjs [--] AGENT [ARGS...]
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();
if (argv.length === 0) {
  console.error("usage: node sdkproxy.mjs [--] AGENT [ARGS...]");
  process.exit(2);
}

// Notifications are the methods the SDK types as notifications; every other
// method constant is a request.
const agentNotifications = new Set([acp.methods.agent.session.cancel]);
const clientNotifications = new Set([
  acp.methods.client.session.update,
  acp.methods.client.elicitation.complete,
]);

function methodNames(tree) {
  return Object.values(tree).flatMap((v) =>
    typeof v === "string" ? [v] : methodNames(v),
  );
}

let toEditor; // the agent-side connection: we are the editor's agent
let toAgent; // the client-side connection: we are the agent's client

const editorFacing = acp.agent({ name: "sdk-proxy" });
for (const method of methodNames(acp.methods.agent)) {
  if (agentNotifications.has(method)) {
    editorFacing.onNotification(method, ({ params }) =>
      toAgent.agent.notify(method, params),
    );
  } else {
    editorFacing.onRequest(method, ({ params, signal }) =>
      toAgent.agent.request(method, params, { signal }),
    );
  }
}
editorFacing.onRequest("*", ({ method, params, signal }) =>
  toAgent.agent.request(method, params, { signal }),
);
editorFacing.onNotification("*", ({ method, params }) =>
  toAgent.agent.notify(method, params),
);

const agentFacing = acp.client({ name: "sdk-proxy" });
for (const method of methodNames(acp.methods.client)) {
  if (clientNotifications.has(method)) {
    agentFacing.onNotification(method, ({ params }) =>
      toEditor.client.notify(method, params),
    );
  } else {
    agentFacing.onRequest(method, ({ params, signal }) =>
      toEditor.client.request(method, params, { signal }),
    );
  }
}
agentFacing.onRequest("*", ({ method, params, signal }) =>
  toEditor.client.request(method, params, { signal }),
);
agentFacing.onNotification("*", ({ method, params }) =>
  toEditor.client.notify(method, params),
);

const child = spawn(argv[0], argv.slice(1), {
  stdio: ["pipe", "pipe", "inherit"],
});
child.on("error", (err) => {
  console.error(`sdk-proxy: cannot start agent: ${err.message}`);
  process.exit(1);
});
child.on("exit", (code) => process.exit(code ?? 1));

toAgent = agentFacing.connect(
  acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)),
);
toEditor = editorFacing.connect(
  acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)),
);
// The editor hung up: close the agent's stdin so it exits, which ends us.
toEditor.closed.then(() => child.stdin.end());
