import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRedisUrl } from '../../../server/adapters.js';
import { LocalInvalidationBus, RedisInvalidationBus, type InvalidationBus } from '../../../server/cache/invalidation-bus.js';
import { dropRedisPrefix, scratchRedisUrl } from '../../helpers/postgres.js';
import { TEST_REDIS_URL } from '../../helpers/scale-env.js';

const silent = { error: () => {} };
const open: { bus: InvalidationBus; publisher?: Redis }[] = [];
let redisUrl: string | undefined;

afterEach(async () => {
  for (const { bus, publisher } of open.splice(0)) {
    await bus.close();
    publisher?.disconnect();
  }
  if (redisUrl) await dropRedisPrefix(redisUrl);
  redisUrl = undefined;
});

/** A bus on Redis as one process of a deployment would open it. */
async function redisBus(url: string): Promise<RedisInvalidationBus> {
  const location = parseRedisUrl(url);
  const publisher = new Redis(location.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  await publisher.connect();
  const bus = await RedisInvalidationBus.open({ publisher, subscriber: new Redis(location.url, { lazyConnect: true }), prefix: location.prefix, log: silent });
  open.push({ bus, publisher });
  return bus;
}

/** Resolves with the next message on `channel`, or rejects after `ms`. */
function nextMessage(bus: InvalidationBus, channel: string, ms = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no message on ${channel} within ${ms} ms`));
    }, ms);
    const off = bus.subscribe(channel, (message) => {
      clearTimeout(timer);
      off();
      resolve(message);
    });
  });
}

/** Waits until Redis has registered `count` subscribers of the bus channel (SUBSCRIBE is asynchronous). */
async function subscribed(url: string, channel: string, count: number): Promise<void> {
  const location = parseRedisUrl(url);
  const admin = new Redis(location.url);
  try {
    for (let i = 0; i < 200; i++) {
      const [, n] = (await admin.pubsub('NUMSUB', `${location.prefix}:bus:${channel}`)) as [string, number];
      if (Number(n) >= count) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('subscribers never registered');
  } finally {
    admin.disconnect();
  }
}

describe('LocalInvalidationBus', () => {
  it('delivers to this process synchronously, per channel, until unsubscribed', async () => {
    const bus = new LocalInvalidationBus();
    open.push({ bus });
    const seen: string[] = [];
    const off = bus.subscribe('keys', (m) => seen.push(m));
    bus.subscribe('other', (m) => seen.push(`other:${m}`));
    bus.publish('keys', 'a');
    expect(seen).toEqual(['a']);
    off();
    bus.publish('keys', 'b');
    bus.publish('other', 'c');
    expect(seen).toEqual(['a', 'other:c']);
  });

  it('refuses channel names that are not short identifiers', () => {
    const bus = new LocalInvalidationBus();
    open.push({ bus });
    expect(() => bus.publish('has space', 'x')).toThrow(/channel/);
    expect(() => bus.subscribe('', () => {})).toThrow(/channel/);
  });
});

describe('RedisInvalidationBus (two processes sharing Redis)', () => {
  it('delivers a publish to the other bus once, and to its own subscribers synchronously and only once', async () => {
    redisUrl = scratchRedisUrl(TEST_REDIS_URL, 'bus');
    const a = await redisBus(redisUrl);
    const b = await redisBus(redisUrl);
    const ownSeen: string[] = [];
    a.subscribe('keys', (m) => ownSeen.push(m));
    const otherSeen: string[] = [];
    b.subscribe('keys', (m) => otherSeen.push(m));
    await subscribed(redisUrl, 'keys', 2);

    const arrived = nextMessage(b, 'keys');
    a.publish('keys', 'key 42 revoked');
    expect(ownSeen).toEqual(['key 42 revoked']);
    expect(await arrived).toBe('key 42 revoked');

    // A marker from b proves a's echo of its own message has been and gone (Redis keeps order per connection).
    const marker = nextMessage(a, 'keys');
    b.publish('keys', 'marker');
    expect(await marker).toBe('marker');
    expect(ownSeen).toEqual(['key 42 revoked', 'marker']);
    expect(otherSeen).toEqual(['key 42 revoked', 'marker']);
  });

  it('keeps deployments with different prefixes apart', async () => {
    redisUrl = scratchRedisUrl(TEST_REDIS_URL, 'bus');
    const otherUrl = scratchRedisUrl(TEST_REDIS_URL, 'bus');
    const a = await redisBus(redisUrl);
    const stranger = await redisBus(otherUrl);
    const b = await redisBus(redisUrl);
    const strangerSeen: string[] = [];
    stranger.subscribe('keys', (m) => strangerSeen.push(m));
    b.subscribe('keys', () => {});
    await subscribed(redisUrl, 'keys', 1);
    await subscribed(otherUrl, 'keys', 1);
    const arrived = nextMessage(b, 'keys');
    a.publish('keys', 'mine');
    expect(await arrived).toBe('mine');
    // The stranger's own marker arrives after anything Redis would have sent it before.
    const marker = nextMessage(stranger, 'keys');
    const probe = await redisBus(otherUrl);
    probe.publish('keys', 'marker');
    expect(await marker).toBe('marker');
    expect(strangerSeen).toEqual(['marker']);
    await dropRedisPrefix(otherUrl);
  });

  it('tells its users that notices may have been missed when the subscription reconnects', async () => {
    redisUrl = scratchRedisUrl(TEST_REDIS_URL, 'bus');
    const location = parseRedisUrl(redisUrl);
    const subscriber = new Redis(location.url, { lazyConnect: true });
    const publisher = new Redis(location.url, { lazyConnect: true });
    await publisher.connect();
    const bus = await RedisInvalidationBus.open({ publisher, subscriber, prefix: location.prefix, log: silent });
    open.push({ bus, publisher });
    bus.subscribe('keys', () => {});
    await subscribed(redisUrl, 'keys', 1);
    const missed = new Promise<void>((resolve) => bus.onMissed(resolve));
    // Drop the subscriber's connection from the server side, as a Redis restart or network cut would.
    const admin = new Redis(location.url);
    const clients = (await admin.client('LIST')) as string;
    const mine = clients.split('\n').find((line) => / cmd=(subscribe|ping)/.test(line) && / sub=1 /.test(line));
    const id = mine?.match(/(?:^|\s)id=(\d+)/)?.[1];
    expect(id).toBeDefined();
    await admin.client('KILL', 'ID', id ?? '');
    admin.disconnect();
    await missed;
    // Subscribed again: a message from another process arrives.
    await subscribed(redisUrl, 'keys', 1);
    const other = await redisBus(redisUrl);
    const arrived = nextMessage(bus, 'keys');
    other.publish('keys', 'after');
    expect(await arrived).toBe('after');
  });
});
