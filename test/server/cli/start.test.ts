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

/** Runs `verity start` until it listens, answers one request (and `probe`'s), then stops it with SIGTERM. */
async function startOnce(
  port: number,
  env: Record<string, string> = {},
  probe: () => Promise<void> = async () => undefined,
): Promise<{ stdout: string; status: number; exitCode: number | null }> {
  const child = spawn(process.execPath, ['bin/verity.mjs', 'start'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', VERITY_DATA_DIR: dir, VERITY_LOG_LEVEL: 'warn', ...env },
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
  await probe().finally(() => undefined);
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

  it('serves probes and metrics on VERITY_METRICS_PORT (loopback), and not on the public port', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const metricsPort = port + 2;
    const seen: Record<string, number> = {};
    const run = await startOnce(port, { VERITY_METRICS_PORT: String(metricsPort) }, async () => {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        seen[`ops ${path}`] = (await fetch(`http://127.0.0.1:${metricsPort}${path}`)).status;
        seen[`public ${path}`] = (await fetch(`http://127.0.0.1:${port}${path}`)).status;
      }
    });
    expect(run.stdout).toContain(`Probes and metrics on http://127.0.0.1:${metricsPort}`);
    expect(seen).toEqual({
      'ops /healthz': 200,
      'ops /readyz': 200,
      'ops /metrics': 200,
      'public /healthz': 200,
      'public /readyz': 404,
      'public /metrics': 404,
    });
    expect(run.exitCode).toBe(0);
  }, 60_000);
});
