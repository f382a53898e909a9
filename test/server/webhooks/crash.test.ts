import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from './receiver.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/verity.mjs');
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Runs a CLI command of the real binary and returns its last output line. */
async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, ...args], { env, cwd: ROOT });
  return stdout.trim().split('\n').at(-1)!;
}

function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'start'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolveStart, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 90_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolveStart(child);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
}

describe('webhook delivery across a crash (SIGKILL)', () => {
  let dataDir: string;
  let receiver: Receiver;
  /** Every request as it arrived (before any answer): event id and body. */
  const arrivals: { id: string; body: string; signature: string }[] = [];
  const held: ServerResponse[] = [];
  let holding = true;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'verity-crash-'));
    // Until the kill, the receiver answers nothing: every delivery is still pending when the
    // process dies (in flight or waiting in the queue). After it, it answers 200 at once.
    receiver = await startReceiver((req, body, res) => {
      arrivals.push({ id: String(req.headers['webhook-id']), body, signature: String(req.headers['signature']) });
      if (holding) held.push(res);
      else res.writeHead(200).end();
    });
  });
  afterAll(async () => {
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers every event at least once after a restart; duplicates carry the same id and body', { timeout: 300_000 }, async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      VERITY_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      VERITY_ALLOW_PRIVATE_WEBHOOKS: 'true',
      VERITY_LOG_LEVEL: 'error',
    };
    const key = await cli(env, 'keys', 'create', '--name', 'crash', '--rate-per-second', '100000', '--rate-per-minute', '1000000');
    const created = JSON.parse(await cli(env, 'webhooks', 'create', '--url', receiver.url)) as { id: number; signing_secret: string };
    expect(created.id).toBe(1);
    expect(created.signing_secret).toMatch(/^whsec_/);

    let server = await startServer(env);
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${key}`, 'user-agent': 'crash-test/1.0', 'content-type': 'application/json' };
    const USERS = 300;
    for (let i = 0; i < USERS; i++) {
      const res = await fetch(`${base}/api/users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: `crash${i}@example.com`, template_id: 'tmpl_email' }),
      });
      const { id } = (await res.json()) as { id: number };
      const moved = await fetch(`${base}/api/users/${id}/verifications`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ verification_id: 'email', status: i % 2 ? 'complete' : 'processing' }),
      });
      expect(moved.status).toBe(200);
    }
    server.kill('SIGKILL');
    await exited(server);
    holding = false;
    for (const res of held) res.destroy();

    const db = new SQLite(join(dataDir, 'verity.sqlite'), { readonly: true });
    const eventIds = (db.prepare('select id from events').all() as { id: string }[]).map((r) => r.id);
    const succeeded = db.prepare("select count(*) as n from webhook_deliveries where state = 'succeeded'").get() as { n: number };
    db.close();
    // A few hundred events, none of them delivered when the process died.
    expect(eventIds.length).toBeGreaterThanOrEqual(USERS);
    expect(succeeded.n).toBe(0);

    server = await startServer(env);
    try {
      const deadline = Date.now() + 150_000;
      const missing = () => eventIds.filter((id) => !arrivals.some((a) => a.id === id));
      while (missing().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(missing()).toEqual([]);
    } finally {
      server.kill('SIGTERM');
      await exited(server);
    }

    // Same id ⇒ same body, and every arrival is signed with the endpoint's secret.
    const bodies = new Map<string, string>();
    for (const a of arrivals) {
      expect(bodies.get(a.id) ?? a.body).toBe(a.body);
      bodies.set(a.id, a.body);
      expect(a.signature).toBe(createHmac('sha256', created.signing_secret).update(a.body).digest('hex'));
      expect((JSON.parse(a.body) as { id: string }).id).toBe(a.id);
    }
    expect([...bodies.keys()].sort()).toEqual([...eventIds].sort());
    // The requests in flight at the kill were sent again: duplicates happened, with the same id.
    expect(arrivals.length).toBeGreaterThan(bodies.size);
  });
});
