// A scripted ACP agent on the official TypeScript SDK, for the version
// pairings through askbridge (conformance/v2peers_test.go).
//
//   node agent.mjs v2   speaks v2 (the SDK's experimental/v2 API) and v1,
//                       chosen per connection by the SDK's protocol router,
//                       as the migration guide asks of a v2 agent
//   node agent.mjs v1   speaks v1 only (the SDK's default API)
//
// On a prompt it asks one question with a form elicitation (the shape any
// form-asking agent uses) and says the answer back as its message, then, on
// v2, asks an approval with a v2 permission request. Every message it sends
// or receives goes through the SDK's schema validators.
import { Readable, Writable } from "node:stream";
import * as v1 from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2";

const mode = process.argv[2] ?? "v2";
const question = {
  message: "Which database should the service use?",
  requestedSchema: {
    type: "object",
    properties: {
      question_0: {
        type: "string",
        title: "Database",
        oneOf: [
          { const: "Postgres", title: "Postgres", description: "relational, the default" },
          { const: "SQLite", title: "SQLite", description: "embedded file" },
        ],
      },
    },
    required: ["question_0"],
  },
};

function said(answer) {
  if (answer.action !== "accept") return `no answer (${answer.action})`;
  return `you chose ${answer.content?.question_0}`;
}

function v1Agent() {
  return v1
    .agent({ name: "askbridge-v1-agent" })
    .onRequest(v1.methods.agent.initialize, () => ({
      protocolVersion: 1,
      agentInfo: { name: "askbridge-v1-agent", version: "1" },
      agentCapabilities: { mcpCapabilities: { http: true } },
    }))
    .onRequest(v1.methods.agent.session.new, () => ({ sessionId: "s-v1" }))
    .onRequest(v1.methods.agent.session.prompt, async ({ params, client }) => {
      const answer = await client.request(v1.methods.client.elicitation.create, {
        sessionId: params.sessionId,
        mode: "form",
        ...question,
      });
      await client.notify(v1.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: said(answer) } },
      });
      return { stopReason: "end_turn" };
    });
}

function v2Agent() {
  let turn = 0;
  const update = (client, sessionId, u) => client.notify(v2.methods.client.session.update, { sessionId, update: u });
  // The work of a turn runs after the prompt is acknowledged (v2's lifecycle).
  async function work(client, sessionId, userMessageId) {
    await update(client, sessionId, { sessionUpdate: "user_message", messageId: userMessageId, content: [{ type: "text", text: "ask me" }] });
    await update(client, sessionId, { sessionUpdate: "state_update", state: "running" });
    const answer = await client.request(v2.methods.client.elicitation.create, { sessionId, mode: "form", ...question });
    await update(client, sessionId, { sessionUpdate: "agent_message", messageId: `m-${turn}`, content: [{ type: "text", text: said(answer) }] });
    const approval = await client.request(v2.methods.client.session.requestPermission, {
      sessionId,
      title: "Run the migrations",
      subject: { type: "command", command: "make migrate", cwd: "/tmp" },
      options: [
        { optionId: "allow", name: "Allow", kind: "allow_once" },
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ],
    });
    const o = approval.outcome;
    const allowed = o.outcome === "selected" && o.optionId === "allow";
    await update(client, sessionId, {
      sessionUpdate: "agent_message",
      messageId: `a-${turn}`,
      content: [{ type: "text", text: `approval: ${o.outcome}${allowed ? " allow" : " not allowed"}` }],
    });
    await update(client, sessionId, { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
  }
  return v2
    .agent({ name: "askbridge-v2-agent" })
    .onRequest(v2.methods.agent.initialize, () => ({
      protocolVersion: 2,
      info: { name: "askbridge-v2-agent", version: "1" },
      capabilities: { session: { mcp: { stdio: {}, http: {} } } },
    }))
    .onRequest(v2.methods.agent.session.new, () => ({ sessionId: "s-v2" }))
    .onRequest(v2.methods.agent.session.list, () => ({ sessions: [] }))
    .onRequest(v2.methods.agent.session.resume, () => ({}))
    .onRequest(v2.methods.agent.session.close, () => ({}))
    .onNotification(v2.methods.agent.session.cancel, () => {})
    .onRequest(v2.methods.agent.session.prompt, ({ params, client }) => {
      turn++;
      const userMessageId = `u-${turn}`;
      setImmediate(() =>
        work(client, params.sessionId, userMessageId).catch((e) => {
          process.stderr.write(`agent: ${e?.stack ?? e}\n`);
          process.exit(3);
        }),
      );
      return { messageId: userMessageId };
    });
}

const stream = v2.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const connection =
  mode === "v1" ? v1Agent().connect(stream) : v2.agentProtocolRouter().withV1(v1Agent()).withV2(v2Agent()).connect(stream);
await connection.closed;
