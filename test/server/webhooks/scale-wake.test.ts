import { afterEach, describe, expect, it } from 'vitest';
import { OutboxRelay } from '../../../server/webhooks/relay.js';
import { webhooksOf } from '../../../server/webhooks/service.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { addEndpoint, createUser, deliveries, moveEmail } from './fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

const servers: TestServer[] = [];
let receiver: Receiver | undefined;
let relay: OutboxRelay | undefined;
afterEach(async () => {
  await relay?.stop();
  // The API server last: it owns the scratch database and Redis prefix the worker shares.
  for (const s of servers.splice(0).reverse()) await s.close();
  await receiver?.close();
});

// Two processes sharing PostgreSQL and Redis exist only on the scale-out switch
// (VERITY_TEST_DATABASE_URL and VERITY_TEST_REDIS_URL); the embedded default is one process,
// where the relay hears the commit's signal itself (every other webhook test covers that).
describe.runIf(process.env.VERITY_TEST_DATABASE_URL && process.env.VERITY_TEST_REDIS_URL)('scale-out: an event written by an API process', () => {
  it('wakes the relay of a worker process over the bus, without waiting for its poll', async () => {
    const api = await startTestServer({ workers: false });
    servers.push(api);
    // The worker process: the API server's database and Redis prefix (its store variables).
    const worker = await startTestServer({ env: api.storeEnv });
    servers.push(worker);
    receiver = await startReceiver();
    await addEndpoint(api, { url: receiver.url, events: ['verification.completed'] });

    // The worker's relay, polling only once an hour from here on: only the bus can wake it in time.
    await webhooksOf(worker.verity.ctx).relay.stop();
    relay = new OutboxRelay(worker.verity.ctx, { pollMs: 3_600_000 });
    relay.start();
    await relay.settled();

    const userId = await createUser(api);
    await moveEmail(api, userId, 'complete');
    const [got] = await receiver.waitFor(1, 20_000);
    expect(JSON.parse(got!.body)).toMatchObject({ type: 'verification.completed', resource_id: userId });
    await worker.verity.ctx.queue.whenIdle();
    expect((await deliveries(api)).map((d) => d.state)).toEqual(['succeeded']);
  });
});
