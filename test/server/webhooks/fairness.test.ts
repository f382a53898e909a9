import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordEvent } from '../../../server/services/events.js';
import { PER_ENDPOINT_IN_FLIGHT } from '../../../server/webhooks/worker.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { addEndpoint, createUser } from './fixtures.js';
import { answer, startReceiver, type Receiver } from './receiver.js';

let server: TestServer;
let slow: Receiver;
let fast: Receiver;
const held: ServerResponse[] = [];
beforeEach(async () => {
  server = await startTestServer();
  slow = await startReceiver((_req, _body, res) => void held.push(res));
  fast = await startReceiver(answer(200));
});
afterEach(async () => {
  for (const res of held.splice(0)) res.writeHead(200).end();
  await server.close();
  await slow.close();
  await fast.close();
});

describe('webhook delivery under a slow receiver', () => {
  it('a receiver that does not answer holds at most its own share of connections; others keep flowing', async () => {
    await addEndpoint(server, { url: slow.url });
    await addEndpoint(server, { url: fast.url });
    const userId = await createUser(server);
    const { ctx } = server.verity;
    const EVENTS = 100;
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < EVENTS; i++) await recordEvent(trx, ctx.clock, { type: 'verification.completed', userId, methodId: 1 });
    });
    ctx.signals.emit('outbox');
    // Well before the slow receiver's 15 s time-out, every event reached the fast one.
    const got = await fast.waitFor(EVENTS, 10_000);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBeGreaterThanOrEqual(EVENTS);
    expect(held.length).toBeLessThanOrEqual(PER_ENDPOINT_IN_FLIGHT);
    expect(held.length).toBeGreaterThan(0);
  });
});
