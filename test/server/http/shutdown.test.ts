/**
 * Shutdown waits for no client: a request in flight when `close()` starts still gets its answer,
 * and neither its keep-alive connection nor one sending its request slowly holds `close()`.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
afterEach(async () => {
  await server.close();
});

/** A raw HTTP/1.1 connection: what the server sent so far, and when the server closed it. */
function rawConnection(url: string): { write(text: string): void; received(): string; closed: Promise<void> } {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  // A connection closed by force may end with a reset: that is a close too.
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { write: (text) => socket.write(text), received: () => received, closed };
}

/** `promise`'s outcome, or 'still waiting' after `ms`: a bound far above what it needs, not a timing assertion. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => {
    timer = setTimeout(() => resolve('still waiting'), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('shutdown', () => {
  it('answers the request in flight, then closes its keep-alive connection and a slow one: close() is prompt', { timeout: 90_000 }, async () => {
    server = await startTestServer({ workers: false, env: { VERITY_SHUTDOWN_GRACE_SECONDS: '5' } });

    // An idle keep-alive connection (one request answered), closed as soon as the listener closes.
    const idle = rawConnection(server.url);
    const answered = new Promise<void>((resolve) => server.verity.app.server.once('request', (_req, res) => res.once('finish', () => resolve())));
    idle.write('GET /healthz HTTP/1.1\r\nHost: verity.test\r\n\r\n');
    await answered;
    // A client sending its request's headers slowly, and never finishing them.
    const slow = rawConnection(server.url);
    slow.write('GET /healthz HTTP/1.1\r\nHost: verity.test\r\n');
    // A request in flight: its headers are in, its body is still on its way when close() starts.
    const body = JSON.stringify({ email: 'late@example.com' });
    const arrived = new Promise<void>((resolve) => server.verity.app.server.once('request', () => resolve()));
    const inFlight = rawConnection(server.url);
    inFlight.write(
      [
        'POST /api/users HTTP/1.1',
        'Host: verity.test',
        `Authorization: Bearer ${server.apiKey}`,
        'User-Agent: verity-tests/1.0',
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: keep-alive',
        '',
        body.slice(0, 4),
      ].join('\r\n'),
    );
    await arrived;

    const closing = server.verity.close();
    // The listener is closing once the idle connection is gone; then the body's rest arrives.
    expect(await within(idle.closed, 30_000)).not.toBe('still waiting');
    expect(idle.received()).toContain('"status":"ok"');
    inFlight.write(body.slice(4));

    expect(await within(closing, 30_000)).not.toBe('still waiting');
    // The request in flight was answered in full (the user exists), and told the connection closes.
    expect(await within(inFlight.closed, 30_000)).not.toBe('still waiting');
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(inFlight.received().toLowerCase()).toContain('connection: close');
    expect(inFlight.received()).toContain('"status":"success"');
    expect(await within(slow.closed, 30_000)).not.toBe('still waiting');
  });

  it('closes a connection that never finishes its request once the configured grace is over', { timeout: 60_000 }, async () => {
    // 1 s here against the 10 s default: a grace that did not follow VERITY_SHUTDOWN_GRACE_SECONDS holds close() far longer.
    server = await startTestServer({ workers: false, env: { VERITY_SHUTDOWN_GRACE_SECONDS: '1' } });
    const slow = rawConnection(server.url);
    const reached = new Promise<void>((resolve) => server.verity.app.server.once('connection', () => resolve()));
    slow.write('GET /healthz HTTP/1.1\r\nHost: verity.test\r\n');
    await reached;
    const closing = server.verity.close();
    expect(await within(slow.closed, 6_000)).not.toBe('still waiting');
    expect(await within(closing, 6_000)).not.toBe('still waiting');
  });
});
