import type { TestServer } from './server.js';

/**
 * Starts the test server's operations listener (`/healthz`, `/readyz`, `/metrics`) on a random
 * loopback port, as VERITY_METRICS_PORT does for `verity start`, and returns its base URL.
 */
export async function listenOps(server: TestServer): Promise<string> {
  const { ops } = server.verity;
  if (!ops.server.listening) await ops.listen({ port: 0, host: '127.0.0.1' });
  const address = ops.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}
