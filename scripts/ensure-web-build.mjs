#!/usr/bin/env node
// Builds the widget, hosted page and dashboard (dist/web, not committed) when they are missing or
// older than their sources, so `npm start` and `npm test` work on a fresh clone without a build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const stamp = join('dist', 'web', '.build-stamp');
const inputs = ['src', 'scripts', 'vite.config.ts', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (built && inputs.every((p) => newest(p) <= built)) process.exit(0);

process.stdout.write('Building the web assets (dist/web)…\n');
const result = spawnSync('npm', ['run', '--silent', 'build:web'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stamp, new Date().toISOString() + '\n');
