// A scripted ACP agent for npm/test.sh: it answers initialize, writes its
// pid to $AGENT_PIDFILE when set (so the test knows it runs), and exits
// with $AGENT_EXIT (default 0) when its stdin ends.
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
  }
});
lines.on('close', () => process.exit(Number(process.env.AGENT_EXIT || 0)));
