// A scripted ACP client (an editor) on the official TypeScript SDK, for the
// version pairings through askbridge (conformance/v2peers_test.go).
//
//   node client.mjs v2|v1 OUTCOME -- COMMAND...
//
// starts COMMAND (askbridge and its agent) and speaks to it with the SDK's
// v2 API (experimental/v2) or its v1 API. A v2 client whose agent answers
// initialize with v1 does what the spec asks of a client that cannot go on:
// it closes the connection, and (as an editor that speaks both would) runs
// again as a v1 client. It renders no forms: questions reach it as
// permission requests, which it answers at once with OUTCOME: "first" picks
// the first option, "_acme_later" (or any other word) answers with that
// outcome, which no version defines. It prints one JSON line: the version
// agreed, the permission requests it got (as the SDK parsed them), the
// session states it saw and the agent's text.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as v1 from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2";

const [mode, outcomeWord, sep, ...command] = process.argv.slice(2);
if (sep !== "--" || command.length === 0) {
  process.stderr.write("usage: client.mjs v2|v1 OUTCOME -- COMMAND...\n");
  process.exit(2);
}

function outcomeFor(params) {
  if (outcomeWord === "first") return { outcome: "selected", optionId: params.options[0].optionId };
  return { outcome: outcomeWord, optionId: params.options[0].optionId };
}

function start() {
  const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const stream = v2.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  return { child, stream };
}

async function runV2(report) {
  const { child, stream } = start();
  const app = v2.client({ name: "askbridge-v2-client" }).onRequest(v2.methods.client.session.requestPermission, ({ params }) => {
    report.permissions.push(params);
    return { outcome: outcomeFor(params) };
  });
  try {
    await app.connectWith(stream, async (agent) => {
      let init;
      try {
        init = await agent.request(v2.methods.agent.initialize, {
          protocolVersion: 2,
          info: { name: "askbridge-v2-client", version: "1" },
          capabilities: {},
        });
      } catch (e) {
        // The SDK's v2 API takes only a v2 answer (a v1 one fails its
        // version check or its schema): the agent speaks another version.
        throw Object.assign(new Error("initialize: " + (e?.message ?? e)), { refused: true });
      }
      report.agreed = init.protocolVersion;
      report.agentCapabilities = init.capabilities;
      const session = await agent.buildSession("/tmp").start();
      await session.prompt("Set up the service; ask me what you need.");
      for (;;) {
        const m = await session.nextUpdate(AbortSignal.timeout(20000));
        const u = m.update;
        if (u.sessionUpdate === "state_update") report.states.push(u.state);
        if (u.sessionUpdate === "agent_message") report.text.push(u.content.map((c) => c.text).join(""));
        if (u.sessionUpdate === "state_update" && u.state === "idle") break;
      }
    });
  } catch (e) {
    // An initialize that failed (the SDK closes the connection on it,
    // whichever error reaches here first) means the agent answered with
    // another version.
    if (!e?.refused && report.agreed !== undefined) throw e;
    // Close, as the spec asks of a client that cannot go on, and run again
    // as a v1 client, as an editor that speaks both does.
    report.refused = e.message;
    child.stdin.end();
    child.kill();
    return runV1(report);
  } finally {
    child.stdin.end();
  }
}

async function runV1(report) {
  const { child, stream } = start();
  const app = v1
    .client({ name: "askbridge-v1-client" })
    .onRequest(v1.methods.client.session.requestPermission, ({ params }) => {
      report.permissions.push(params);
      return { outcome: outcomeFor(params) };
    })
    .onNotification(v1.methods.client.session.update, ({ params }) => {
      const u = params.update;
      if (u.sessionUpdate === "agent_message_chunk") report.text.push(u.content.text);
    });
  try {
    await app.connectWith(stream, async (agent) => {
      const init = await agent.request(v1.methods.agent.initialize, {
        protocolVersion: 1,
        clientInfo: { name: "askbridge-v1-client", version: "1" },
        clientCapabilities: {},
      });
      report.agreed = init.protocolVersion;
      const s = await agent.request(v1.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
      const done = await agent.request(v1.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "Set up the service; ask me what you need." }],
      });
      report.stopReason = done.stopReason;
    });
  } finally {
    child.stdin.end();
  }
}

const report = { mode, permissions: [], states: [], text: [] };
try {
  await (mode === "v1" ? runV1(report) : runV2(report));
} catch (e) {
  report.error = String(e?.message ?? e);
}
process.stdout.write(JSON.stringify(report) + "\n");
process.exit(report.error ? 1 : 0);
