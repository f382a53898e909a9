import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coalesceSends } from '../../../server/http/coalesced-sends.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await app?.close();
  app = undefined;
});

const REQUESTS = 10;

/**
 * A server whose `/burst?n=` requests wait for one another, then become ready one after the other
 * within a single turn of the event loop (request n after n × 50 microtask steps, far more than
 * sending a response takes), logging when each is ready and when its response is written.
 */
async function burstServer(events: string[]): Promise<FastifyInstance> {
  const instance = Fastify();
  coalesceSends(instance);
  let arrived = 0;
  let releaseAll: () => void = () => {};
  const allArrived = new Promise<void>((resolve) => (releaseAll = resolve));
  instance.get<{ Querystring: { n: string } }>('/burst', async (req, reply) => {
    const n = Number(req.query.n);
    const end = reply.raw.end.bind(reply.raw) as (...args: unknown[]) => unknown;
    Object.assign(reply.raw, {
      end: (...args: unknown[]) => {
        events.push(`sent ${n}`);
        return end(...args);
      },
    });
    if (++arrived === REQUESTS) releaseAll();
    await allArrived;
    for (let step = 0; step < n * 50; step++) await null;
    events.push(`ready ${n}`);
    return { n };
  });
  instance.get<{ Querystring: { n: string } }>('/echo', async (req) => ({ n: Number(req.query.n) }));
  await instance.ready();
  return instance;
}

describe('coalesced sends', () => {
  it('sends the responses that became ready in one turn together, once the last of them is ready', async () => {
    const events: string[] = [];
    app = await burstServer(events);
    const ns = Array.from({ length: REQUESTS }, (_, i) => i);
    const responses = await Promise.all(ns.map((n) => app!.inject({ url: `/burst?n=${n}` })));
    // Each request gets its own answer.
    expect(responses.map((r) => r.json())).toEqual(ns.map((n) => ({ n })));
    // Without coalescing, request 0's response would be written long before request 9 is ready.
    expect(events).toEqual([...ns.map((n) => `ready ${n}`), ...ns.map((n) => `sent ${n}`)]);
  });

  it('sends a lone response in its own turn, and those of later turns too', async () => {
    app = await burstServer([]);
    for (let n = 0; n < 3; n++) {
      const response = await app.inject({ url: `/echo?n=${n}` });
      expect(response.json()).toEqual({ n });
    }
  });

  it('sends responses while the global timers are faked (a test that fakes them cannot stall the server)', async () => {
    app = await burstServer([]);
    vi.useFakeTimers();
    const response = await app.inject({ url: '/echo?n=7' });
    expect(response.json()).toEqual({ n: 7 });
  });
});
