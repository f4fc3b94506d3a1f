#!/usr/bin/env node
// Makes askbridge's npm packages from GoReleaser's output: one package per
// platform holding that platform's binary (@askbridge/linux-x64, ...) and
// the package askbridge, whose launcher runs the binary of the platform it
// is on. Versions are the release's (dist/metadata.json), all the same.
//
//   node npm/build.mjs [--allow-missing] [DIST]
//
// DIST is GoReleaser's dist directory (default: dist). The packages are
// written to DIST/npm/packages/ and packed (npm pack) to DIST/npm/*.tgz.
// Every platform below must have been built, unless --allow-missing (a
// partial snapshot): a release must not go out with one missing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The platforms askbridge ships, as npm names them, by Go's names.
const platforms = [
  { goos: 'linux', goarch: 'amd64', os: 'linux', cpu: 'x64', title: 'Linux x64' },
  { goos: 'linux', goarch: 'arm64', os: 'linux', cpu: 'arm64', title: 'Linux arm64' },
  { goos: 'darwin', goarch: 'amd64', os: 'darwin', cpu: 'x64', title: 'macOS Intel' },
  { goos: 'darwin', goarch: 'arm64', os: 'darwin', cpu: 'arm64', title: 'macOS Apple silicon' },
  { goos: 'windows', goarch: 'amd64', os: 'win32', cpu: 'x64', title: 'Windows x64' },
  { goos: 'windows', goarch: 'arm64', os: 'win32', cpu: 'arm64', title: 'Windows arm64' },
];

const common = {
  license: 'Apache-2.0',
  repository: { type: 'git', url: 'git+https://github.com/askbridge/askbridge.git' },
  homepage: 'https://github.com/askbridge/askbridge#readme',
  bugs: 'https://github.com/askbridge/askbridge/issues',
};

const args = process.argv.slice(2);
const allowMissing = args.includes('--allow-missing');
const dist = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, 'dist'));

function readJSON(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJSON(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

const { version } = readJSON(path.join(dist, 'metadata.json'));
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
  console.error(`npm/build.mjs: ${dist}/metadata.json: version ${JSON.stringify(version)} is not one npm takes`);
  process.exit(1);
}

// The binaries GoReleaser built, by goos/goarch. Paths in artifacts.json
// are relative to the directory GoReleaser ran in: the repository root.
const binaries = new Map();
for (const a of readJSON(path.join(dist, 'artifacts.json'))) {
  if (a.type === 'Binary' && a.extra?.ID === 'askbridge') {
    binaries.set(`${a.goos}/${a.goarch}`, path.resolve(root, a.path));
  }
}

function fail(message) {
  console.error(`npm/build.mjs: ${message}`);
  process.exit(1);
}

const missing = platforms.filter((p) => !binaries.has(`${p.goos}/${p.goarch}`)).map((p) => `${p.goos}/${p.goarch}`);
if (missing.length === platforms.length) fail(`no askbridge binaries in ${dist}/artifacts.json`);
if (missing.length > 0 && !allowMissing) {
  fail(`no binary for ${missing.join(', ')} in ${dist}/artifacts.json (--allow-missing for a partial build)`);
}

const out = path.join(dist, 'npm');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'packages'), { recursive: true });

function pack(dir) {
  const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
    cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'],
  }));
  console.log(`npm/build.mjs: ${path.relative(root, path.join(out, filename))}`);
}

const optionalDependencies = {};
for (const p of platforms) {
  const name = `@askbridge/${p.os}-${p.cpu}`;
  optionalDependencies[name] = version;
  const binary = binaries.get(`${p.goos}/${p.goarch}`);
  if (!binary) continue;
  const exe = p.os === 'win32' ? 'askbridge.exe' : 'askbridge';
  const dir = path.join(out, 'packages', `${p.os}-${p.cpu}`);
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.copyFileSync(binary, path.join(dir, 'bin', exe));
  fs.chmodSync(path.join(dir, 'bin', exe), 0o755);
  writeJSON(path.join(dir, 'package.json'), {
    name,
    version,
    description: `The askbridge binary for ${p.title}; the askbridge package runs it.`,
    ...common,
    os: [p.os],
    cpu: [p.cpu],
    files: [`bin/${exe}`, 'LICENSE'],
    preferUnplugged: true,
    publishConfig: { access: 'public' },
  });
  fs.copyFileSync(path.join(root, 'LICENSE'), path.join(dir, 'LICENSE'));
  fs.writeFileSync(path.join(dir, 'README.md'),
    `# ${name}\n\nThe askbridge binary for ${p.title}. Install \`askbridge\`, not this: ` +
    'its launcher picks the package of your platform.\n');
  pack(dir);
}

const main = path.join(out, 'packages', 'askbridge');
fs.cpSync(path.join(root, 'npm', 'askbridge'), main, { recursive: true });
fs.chmodSync(path.join(main, 'bin', 'askbridge.js'), 0o755);
fs.copyFileSync(path.join(root, 'LICENSE'), path.join(main, 'LICENSE'));
writeJSON(path.join(main, 'package.json'), {
  name: 'askbridge',
  version,
  description: "Makes an AI coding agent's questions work in every ACP client: npx -y askbridge -- AGENT...",
  keywords: ['acp', 'agent-client-protocol', 'zed', 'claude-code', 'codex', 'gemini', 'elicitation'],
  ...common,
  bin: { askbridge: 'bin/askbridge.js' },
  files: ['bin/askbridge.js', 'README.md', 'LICENSE'],
  engines: { node: '>=18' },
  optionalDependencies,
});
pack(main);
if (missing.length > 0) console.log(`npm/build.mjs: left out ${missing.join(', ')} (--allow-missing)`);
