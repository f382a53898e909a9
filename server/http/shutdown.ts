import type { FastifyInstance } from 'fastify';

export interface Drain {
  /** From now on every answer closes its connection: keep-alive clients go elsewhere at once. */
  begin(): void;
  /**
   * Closes the listener: requests in flight are answered (each then closing its connection), idle
   * connections close at once, and after `graceMs` every connection still open is closed (one
   * sending its request slowly, or never finishing it), so shutdown never waits on a client.
   */
  close(graceMs: number): Promise<void>;
}

/**
 * Shutdown that waits for no client. Node's `server.close()` waits for every connection: a
 * keep-alive one whose request was in flight stayed open after its answer for the keep-alive
 * timeout (72 s), and one still sending its headers for ever (the timeout checks stop at close).
 * Requests that arrive on an open connection during close are answered as usual
 * (`return503OnClosing: false` on the server: Fastify's 503 body is not the spec's error body).
 */
export function drainOnClose(app: FastifyInstance): Drain {
  let draining = false;
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (draining) void reply.header('connection', 'close');
    done(null, payload);
  });
  return {
    begin() {
      draining = true;
    },
    async close(graceMs) {
      draining = true;
      const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
      force.unref();
      try {
        await app.close();
      } finally {
        clearTimeout(force);
      }
    },
  };
}
