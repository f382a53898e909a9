/**
 * The demo customer site (`npm run demo`): its backend creates users through Verity's API and its
 * page embeds the widget; it accepts only webhooks whose signature checks out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const root = resolve(import.meta.dirname, '../..');
const SECRET = 'whsec_demo_test_secret';

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

let verity: TestServer;
let demo: ChildProcess;
let demoUrl: string;

beforeEach(async () => {
  verity = await startTestServer({ workers: false });
  const port = await freePort();
  demoUrl = `http://127.0.0.1:${port}`;
  demo = spawn(process.execPath, ['--import', 'tsx', 'demo/server.ts'], {
    cwd: root,
    env: { ...process.env, VERITY_URL: verity.url, VERITY_API_KEY: verity.apiKey, VERITY_WEBHOOK_SECRET: SECRET, DEMO_PORT: String(port), DEMO_URL: demoUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ok) => demo.stdout!.once('data', () => ok()));
});

afterEach(async () => {
  demo.kill('SIGTERM');
  await verity.close();
});

describe('demo customer site', () => {
  it('creates a user through the API and embeds the button in each mode and the inline flow', async () => {
    const res = await fetch(`${demoUrl}/verify`, { method: 'POST', body: new URLSearchParams({ email: 'demo@example.com' }) });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const mode of ['redirect', 'modal', 'popup']) expect(html).toContain(`mode="${mode}"`);
    expect(html).toMatch(/<verify-flow link="[^"]*\/security-verify\?[^"]*signature=/);
    expect(html).toContain(`<script src="${verity.url}/web/verity.js"></script>`);
    expect(html).not.toContain(verity.apiKey);
    const users = await verity.api('/api/users?filter[email]=demo@example.com');
    expect(users.body.meta.total).toBe(1);
  });

  it('shows signed webhooks as verified and refuses the others', async () => {
    const body = JSON.stringify({
      id: 'e1',
      type: 'verification.completed',
      data: { reference_id: 'demo-1', user_status: 'Verified', verification_name: 'Email' },
    });
    const good = await fetch(`${demoUrl}/webhooks`, {
      method: 'POST',
      body,
      headers: { Signature: createHmac('sha256', SECRET).update(body).digest('hex'), 'Content-Type': 'application/json' },
    });
    expect(good.status).toBe(200);
    const bad = await fetch(`${demoUrl}/webhooks`, {
      method: 'POST',
      body,
      headers: { Signature: createHmac('sha256', 'wrong').update(body).digest('hex'), 'Content-Type': 'application/json' },
    });
    expect(bad.status).toBe(403);
    const shown = (await (await fetch(`${demoUrl}/events`)).json()) as { verified: boolean; type: string }[];
    expect(shown.map((e) => e.verified)).toEqual([false, true]);
    expect(shown[1]!.type).toBe('verification.completed');
  });
});
