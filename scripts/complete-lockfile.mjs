#!/usr/bin/env node
// npm 11 leaves other platforms' optional packages (rollup's and msgpackr-extract's native builds)
// out of package-lock.json when it installs on Linux, and then `npm ci` refuses the lockfile as
// "Missing: … from lock file" (npm/cli#4828, #8320). The registry this project installs from does
// not carry those other-platform builds at all, so their entries are written from what the names
// say (os, cpu, libc): npm ci then sees them, finds they do not fit this machine and skips them,
// exactly as it would with full entries. Run it after `npm install` whenever the lockfile changed.
import { readFileSync, writeFileSync } from 'node:fs';

const file = 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'netbsd', 'sunos', 'win32', 'aix'];
const CPU = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'];

/** `@rollup/rollup-linux-arm64-musl` → { os: ['linux'], cpu: ['arm64'], libc: ['musl'] }. */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = OS.find((o) => tokens.includes(o));
  const cpu = CPU.find((c) => tokens.includes(c) || (c === 'arm' && tokens.some((t) => /^arm(eabi|hf)?$/.test(t) || t === 'gnueabihf')));
  if (!os || !cpu) throw new Error(`complete-lockfile: cannot tell the platform of ${name}; add its entry by hand`);
  const libc =
    tokens.includes('musl') || tokens.includes('musleabihf') ? ['musl'] : os === 'linux' && tokens.some((t) => t.startsWith('gnu')) ? ['glibc'] : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    // Resolution as npm does it: next to the dependent, then up the tree.
    const parts = path.split('node_modules/').slice(0, -1);
    const candidates = [];
    for (let i = parts.length; i >= 0; i--) candidates.push(`${parts.slice(0, i).join('node_modules/')}node_modules/${name}`);
    if (candidates.some((c) => packages[c])) continue;
    const target = candidates.at(-1);
    packages[target] = { version: range.replace(/^[\^~=]/, ''), ...platformOf(name), optional: true };
    added++;
  }
}

// Keep npm's own ordering (sorted keys) so diffs stay small.
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(`complete-lockfile: added ${added} optional platform package entr${added === 1 ? 'y' : 'ies'}\n`);
