import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verity-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('applies the embedded defaults', () => {
    const c = loadConfig({ VERITY_DATA_DIR: dir });
    expect(c.port).toBe(8080);
    expect(c.baseUrl).toBe('http://localhost:8080');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.allowPrivateWebhooks).toBe(true);
    expect(c.shutdownGraceSeconds).toBe(10);
  });

  it('takes the shutdown grace in whole seconds, from 0 to 600', () => {
    expect(loadConfig({ VERITY_DATA_DIR: dir, VERITY_SHUTDOWN_GRACE_SECONDS: '0' }).shutdownGraceSeconds).toBe(0);
    expect(loadConfig({ VERITY_DATA_DIR: dir, VERITY_SHUTDOWN_GRACE_SECONDS: '30' }).shutdownGraceSeconds).toBe(30);
    for (const bad of ['-1', '601', '2.5', 'soon']) {
      expect(() => loadConfig({ VERITY_DATA_DIR: dir, VERITY_SHUTDOWN_GRACE_SECONDS: bad })).toThrow(/VERITY_SHUTDOWN_GRACE_SECONDS/);
    }
  });

  it('generates a secret once and keeps it in the data dir', async () => {
    const first = loadConfig({ VERITY_DATA_DIR: dir });
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await readFile(join(dir, 'secret.key'), 'utf8')).trim()).toBe(first.secret);
    expect(loadConfig({ VERITY_DATA_DIR: dir }).secret).toBe(first.secret);
  });

  it('follows PORT in the default base URL and trims a trailing slash from VERITY_BASE_URL', () => {
    expect(loadConfig({ VERITY_DATA_DIR: dir, PORT: '9000' }).baseUrl).toBe('http://localhost:9000');
    const c = loadConfig({ VERITY_DATA_DIR: dir, VERITY_BASE_URL: 'https://verify.example.com/' });
    expect(c.baseUrl).toBe('https://verify.example.com');
    expect(c.allowPrivateWebhooks).toBe(false);
  });

  it('stops with a message naming each bad variable', () => {
    const bad = {
      VERITY_DATA_DIR: dir,
      PORT: 'http',
      VERITY_BASE_URL: 'ftp://example.com',
      VERITY_DATABASE_URL: 'mysql://x',
      VERITY_SECRET: 'short',
      VERITY_ALLOW_PRIVATE_WEBHOOKS: 'maybe',
    };
    expect(() => loadConfig(bad)).toThrow(ConfigError);
    try {
      loadConfig(bad);
    } catch (error: unknown) {
      const message = (error as Error).message;
      for (const name of Object.keys(bad).filter((k) => k !== 'VERITY_DATA_DIR')) expect(message).toContain(name);
    }
  });
});

describe('VERITY_TRUST_PROXY', () => {
  it('is off by default and takes a hop count or a list of addresses and CIDR ranges', () => {
    expect(loadConfig({ VERITY_DATA_DIR: dir }).trustProxy).toBe(false);
    expect(loadConfig({ VERITY_DATA_DIR: dir, VERITY_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ VERITY_DATA_DIR: dir, VERITY_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ VERITY_DATA_DIR: dir, VERITY_TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('stops the boot on a value that is none of these, naming the variable and the bad entry', () => {
    for (const [value, named] of [
      ['10.0.0.0/33', '"10.0.0.0/33"'],
      ['10.0.0.0/8,proxy.internal', '"proxy.internal"'],
      ['true', 'every client'],
      ['-1', '"-1"'],
      ['1000', 'hops'],
    ] as const) {
      expect(() => loadConfig({ VERITY_DATA_DIR: dir, VERITY_TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ VERITY_DATA_DIR: dir, VERITY_TRUST_PROXY: value })).toThrow(new RegExp(`VERITY_TRUST_PROXY: .*${named}`));
    }
  });
});
