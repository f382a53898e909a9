import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerity, type Verity } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';

/** The server's own log at the default level, as an operator sees it. */
let dir: string;
let verity: Verity;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verity-log-'));
  const config = loadConfig({ VERITY_DATA_DIR: dir, VERITY_SECRET: 'log-test-secret-'.padEnd(48, 'x'), VERITY_LOG_LEVEL: 'info' });
  verity = await buildVerity({ config, analysis: false, logStream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
});
afterAll(async () => {
  await verity.close();
  await rm(dir, { recursive: true, force: true });
});

describe('access log', () => {
  it('writes one line per request when it ends, with method, path, status and time, and no bearer link or e-mail', async () => {
    lines.length = 0;
    await verity.app.inject({ url: '/api/users/1', headers: { 'user-agent': 'log-test', authorization: 'Bearer vk_live_wrong' } });
    await verity.app.inject({ url: '/security-verify?expires=1&key=secret-key&signature=deadbeef' });
    await verity.app.inject({ url: '/api/users?filter[email]=uma@beta.test&page=2', headers: { 'user-agent': 'log-test' } });
    const requests = lines.filter((l) => l.msg === 'request completed' || l.msg === 'incoming request');
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/users/1' }, res: { statusCode: 401 } });
    expect(typeof requests[0]!.responseTime).toBe('number');
    expect(requests[1]).toMatchObject({ req: { url: '/security-verify?[redacted]' } });
    const all = JSON.stringify(lines);
    expect(all).not.toContain('secret-key');
    expect(all).not.toContain('deadbeef');
    expect(all).not.toContain('vk_live_wrong');
    expect(all).not.toContain('uma@beta.test');
    expect(requests[2]).toMatchObject({ req: { url: '/api/users?filter[email]=[redacted]&page=2' } });
  });
});
