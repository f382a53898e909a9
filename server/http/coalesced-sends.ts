import { setImmediate } from 'node:timers';
import type { FastifyInstance } from 'fastify';

/**
 * Sends the responses that became ready in one turn of the event loop together, at the end of
 * that turn, rather than each as soon as it is ready.
 *
 * Why: under load one turn handles the requests of many connections, and each response written to
 * a socket wakes the process reading its other end (a proxy, a load balancer, a load generator).
 * Written one by one, between other requests' work, nearly every write finds that reader asleep
 * and pays for waking it; written back to back, one wake-up serves many. On the 2-core bench
 * machines that wake-up was most of the difference between a GET's `writev` and the bare
 * baseline's, and sending together raised `GET /api/users/{id}` by about a fifth (docs/performance.md, "How
 * fast the customer API is").
 *
 * A response waits at most for the rest of its turn's work. Under light load a turn holds one
 * request, and its response goes out right after it is ready. `setImmediate` is Node's own, from
 * `node:timers`, so a test that fakes the global timers cannot hold responses back.
 */
export function coalesceSends(app: FastifyInstance): void {
  let due: (() => void)[] = [];
  const sendAll = () => {
    const sends = due;
    due = [];
    for (const send of sends) {
      // One response's failure must not keep the others of its turn from being sent.
      try {
        send();
      } catch (error) {
        app.log.error({ err: error }, 'sending a response failed');
      }
    }
  };
  app.addHook('onSend', (_req, _reply, payload, done) => {
    if (due.push(() => done(null, payload)) === 1) setImmediate(sendAll);
  });
}
