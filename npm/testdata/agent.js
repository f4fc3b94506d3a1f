// A scripted ACP agent for npm/test.sh: it answers initialize, then exits
// with $AGENT_EXIT_AFTER_INIT when that is set; it writes its pid to
// $AGENT_PIDFILE when set (so the test knows it runs), and exits 0 when its
// stdin ends.
'use strict';
const fs = require('fs');
const readline = require('readline');

if (process.env.AGENT_PIDFILE) fs.writeFileSync(process.env.AGENT_PIDFILE, String(process.pid));
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') {
    process.stdout.write(JSON.stringify({
      jsonrpc: '2.0',
      id: msg.id,
      result: {
        protocolVersion: 1,
        agentCapabilities: {},
        authMethods: [],
        agentInfo: { name: 'npx-scripted-agent', version: '1.0.0' },
      },
    }) + '\n');
    if (process.env.AGENT_EXIT_AFTER_INIT) process.exit(Number(process.env.AGENT_EXIT_AFTER_INIT));
  }
});
lines.on('close', () => process.exit(0));
