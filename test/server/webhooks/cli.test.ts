import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../server/main.js';
import type { CliIo } from '../../../server/cli/io.js';

let dataDir: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'verity-cli-'));
  env = { VERITY_DATA_DIR: dataDir, VERITY_LOG_LEVEL: 'silent', VERITY_SECRET: 'cli-secret-'.padEnd(40, 'x') };
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function verity(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io, env);
  return { code, out, err };
}

describe('verity webhooks', () => {
  it('create prints the endpoint with its secret as JSON on the last line; list, reveal and delete', async () => {
    const created = await verity(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/in',
      '--events',
      'verification.completed,user.status.changed',
      '--methods',
      'email,2',
    );
    expect(created.code).toBe(0);
    const endpoint = JSON.parse(created.out.at(-1)!) as { id: number; signing_secret: string; events: string[]; methods: number[] };
    expect(endpoint.id).toBe(1);
    expect(endpoint.signing_secret).toMatch(/^whsec_/);
    expect(endpoint.events).toEqual(['verification.completed', 'user.status.changed']);
    expect(endpoint.methods).toEqual([1, 2]);

    const listed = await verity('webhooks', 'list');
    expect(listed.out).toHaveLength(1);
    expect(listed.out[0]).not.toContain(endpoint.signing_secret);
    expect((JSON.parse(listed.out[0]!) as { url: string }).url).toBe('https://hooks.example.com/in');

    const revealed = await verity('webhooks', 'reveal', '1');
    expect((JSON.parse(revealed.out.at(-1)!) as { signing_secret: string }).signing_secret).toBe(endpoint.signing_secret);

    const rotated = await verity('webhooks', 'rotate', '1', '--overlap-hours', '1');
    expect((JSON.parse(rotated.out.at(-1)!) as { signing_secret: string; rotation_in_progress: boolean }).rotation_in_progress).toBe(true);

    expect((await verity('webhooks', 'delete', '1')).code).toBe(0);
    expect((await verity('webhooks', 'list')).out).toEqual([]);
  });

  it('queues a test payload and lists it among the deliveries, badged test', async () => {
    await verity('webhooks', 'create', '--url', 'https://hooks.example.com/in');
    const queued = await verity('webhooks', 'test', '1', '--type', 'user.status.changed');
    expect(queued.code).toBe(0);
    const delivery = JSON.parse(queued.out.at(-1)!) as { id: number; test: boolean; event_type: string; state: string };
    expect(delivery).toMatchObject({ test: true, event_type: 'user.status.changed', state: 'pending' });
    const listed = await verity('webhooks', 'deliveries', '--test');
    expect(listed.out.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([delivery.id]);
    const shown = await verity('webhooks', 'delivery', String(delivery.id));
    const detail = JSON.parse(shown.out.at(-1)!) as { payload: { data: { previous_status: string } } };
    expect(detail.payload.data.previous_status).toBe('Active');
    // Not failed: a retry by hand is refused with a usage error.
    const retry = await verity('webhooks', 'retry', String(delivery.id));
    expect(retry.code).toBe(2);
    expect(retry.err.join('\n')).toMatch(/Only a failed delivery/);
  });

  it('reveal under another VERITY_SECRET says the secret cannot be decrypted (exit 2) and shows nothing', async () => {
    const created = await verity('webhooks', 'create', '--url', 'https://hooks.example.com/in');
    const { signing_secret: secret } = JSON.parse(created.out.at(-1)!) as { signing_secret: string };
    env = { ...env, VERITY_SECRET: 'another-secret-'.padEnd(40, 'y') };
    const revealed = await verity('webhooks', 'reveal', '1');
    expect(revealed.code).toBe(2);
    expect(revealed.err.join('\n')).toMatch(/webhook endpoint 1 cannot be decrypted: VERITY_SECRET is not the one it was sealed with/);
    expect([...revealed.out, ...revealed.err].join('\n')).not.toContain(secret);
  });

  it('refuses bad input with exit code 2', async () => {
    expect((await verity('webhooks', 'create', '--url', 'not a url')).code).toBe(2);
    expect((await verity('webhooks', 'create', '--url', 'https://x.example', '--events', 'user.deleted')).code).toBe(2);
    expect((await verity('webhooks', 'delete', '42')).code).toBe(2);
    expect((await verity('webhooks', 'frobnicate')).code).toBe(2);
  });
});
