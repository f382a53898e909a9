import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookSender } from '../../../server/webhooks/sender.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('webhook sender timeout', () => {
  let receiver: Receiver | undefined;
  const sender = new WebhookSender();

  afterEach(async () => {
    vi.restoreAllMocks();
    sender.close();
    await receiver?.close();
  });

  it('an attempt cut off by the timeout lasted at least the timeout, even when the clock read trails the timer', async () => {
    // A receiver that never answers: only the timeout ends the attempt.
    receiver = await startReceiver(() => undefined);
    // The event loop's cached clock can run a millisecond ahead of performance.now(); simulate
    // the high-resolution clock reading just short of the timeout when the timer fires.
    let calls = 0;
    const base = performance.now();
    vi.spyOn(performance, 'now').mockImplementation(() => (calls++ === 0 ? base : base + 199.4));
    const result = await sender.send({ url: receiver.url, headers: {}, body: '{}', timeoutMs: 200, allowPrivate: true });
    expect(result.error).toBe('no answer within 0.2 s');
    expect(result.durationMs).toBe(200);
  });
});
