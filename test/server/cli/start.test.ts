import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verity-start-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `verity start` until it listens, answers one request, then stops it with SIGTERM. */
async function startOnce(port: number): Promise<{ stdout: string; status: number; exitCode: number | null }> {
  const child = spawn(process.execPath, ['bin/verity.mjs', 'start'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', VERITY_DATA_DIR: dir, VERITY_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stdout}`)));
  });
  const res = await fetch(`http://127.0.0.1:${port}/api/settings/verifications`, { headers: { 'user-agent': 't' } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return { stdout, status: res.status, exitCode: await exited };
}

describe('npm start (verity start)', () => {
  it('creates the database and the first admin, says once how to sign in and get a key, and stops cleanly', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const first = await startOnce(port);
    expect(first.stdout).toMatch(/Admin sign-in: .*\/admin .*admin@localhost .*password \S{16,}/);
    expect(first.stdout).toContain('keys create --name');
    expect(first.status).toBe(401);
    expect(first.exitCode).toBe(0);

    const second = await startOnce(port + 1);
    expect(second.stdout).not.toContain('password');
    expect(second.stdout).toContain('listening on');
  }, 60_000);
});
