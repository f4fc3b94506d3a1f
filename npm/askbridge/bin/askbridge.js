#!/usr/bin/env node
// askbridge's npm launcher: it runs the askbridge binary of this machine's
// platform package (@askbridge/linux-x64, @askbridge/darwin-arm64, ...), an
// optional dependency that npm installs only where its os and cpu match, as
// esbuild and biome do: no postinstall download, so an offline mirror or a
// CI cache installs it like any package.
//
// On Linux and macOS with Node 22.15 or later (process.execve), the launcher
// becomes askbridge: the same process, no Node left resident, and signals,
// exit codes and the editor's pipes askbridge's own. Elsewhere (older Node,
// Windows) it spawns askbridge with stdin, stdout and stderr inherited, so
// the ACP messages still go between the editor and askbridge with no Node
// stream in between; signals the launcher gets are passed on (askbridge
// stops its agent before it exits), and askbridge's exit code, or the
// signal that ended it, becomes the launcher's. If that launcher is killed
// outright (SIGKILL), askbridge still holds the editor's pipes and stops
// when the editor closes them.
'use strict';

const fs = require('fs');
const pkg = require('../package.json');

const target = `${process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? 'askbridge.exe' : 'askbridge';

function fail(message) {
  process.stderr.write(`askbridge: ${message}\n`);
  process.exit(1);
}

// binaryPath is ASKBRIDGE_BINARY when set (a build of your own), else the
// binary of this platform's package.
function binaryPath() {
  if (process.env.ASKBRIDGE_BINARY) return process.env.ASKBRIDGE_BINARY;
  const name = `@askbridge/${target}`;
  const known = Object.keys(pkg.optionalDependencies || {});
  if (!known.includes(name)) {
    const targets = known.map((n) => n.replace('@askbridge/', '')).join(', ');
    fail(`no build for ${target} (there are ${targets}); with Go installed: ` +
      'go install github.com/askbridge/askbridge/cmd/askbridge@latest');
  }
  try {
    return require.resolve(`${name}/bin/${exe}`);
  } catch {
    fail(`the package ${name}@${pkg.version} is not installed. npm installs it with ` +
      'askbridge unless optional dependencies are left out (--omit=optional, ' +
      '--no-optional, or a lockfile made on another platform): install again ' +
      `without that, or add ${name}@${pkg.version} yourself.`);
  }
}

const binary = binaryPath();
const args = process.argv.slice(2);

// A failed execve cannot be caught: Node aborts with a native stack trace.
// So what it would fail on is checked first and told plainly. Nothing may
// run before the exec that installs a signal listener: Node then execs with
// every signal blocked, and askbridge would never see SIGTERM.
if (process.platform !== 'win32' && typeof process.execve === 'function') {
  try {
    if (!fs.statSync(binary).isFile()) fail(`${binary} is not a file`);
    fs.accessSync(binary, fs.constants.X_OK);
  } catch (err) {
    fail(`cannot run ${binary}: ${err.message}`);
  }
  process.execve(binary, [binary, ...args], process.env);
}

const { spawn } = require('child_process');
const os = require('os');

const child = spawn(binary, args, { stdio: 'inherit', windowsHide: true });

// On Unix a signal sent to the launcher alone (an editor stopping its agent
// server) goes on to askbridge. A terminal's Ctrl-C reaches both; askbridge
// takes the second SIGINT as the first. On Windows, Ctrl-C, Ctrl-Break and a
// closing console reach askbridge from the console itself, and Node's kill
// would end it without its graceful stop: the launcher only waits.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2', 'SIGBREAK'];
const handlers = new Map();
for (const sig of forwarded) {
  const handler = () => {
    if (process.platform !== 'win32' && child.exitCode === null && child.signalCode === null) {
      try { child.kill(sig); } catch { /* it has just exited */ }
    }
  };
  try {
    process.on(sig, handler);
    handlers.set(sig, handler);
  } catch { /* not a signal on this platform */ }
}

child.on('error', (err) => fail(`cannot run ${child.spawnfile}: ${err.message}`));

child.on('exit', (code, signal) => {
  if (signal === null) process.exit(code);
  // Die of the same signal, so whoever started the launcher sees what
  // happened to askbridge. Node ignores a few signals (SIGPIPE); for those
  // exit as a shell would report them.
  for (const [sig, handler] of handlers) process.removeListener(sig, handler);
  try { process.kill(process.pid, signal); } catch { /* fall through */ }
  setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 500);
});
