import type { FastifyInstance } from 'fastify';
import { recordHttpRequest, registry } from '../../metrics/metrics.js';

/** One dependency `/readyz` checks: resolves when reachable, throws (or times out) when not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `/healthz`: the process is alive and its event loop answers (for a liveness probe: restart on
 * failure). `/readyz`: the database, Redis and the blob store answer (for a readiness probe: take
 * out of the load balancer on failure). `/metrics`: Prometheus text format. None needs a key and
 * none says more than up/down per dependency; keep `/metrics` on the internal network.
 */
export function registerHealthRoutes(app: FastifyInstance, checks: readonly ReadinessCheck[]): void {
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const results = await Promise.all(
      checks.map(async (c) => {
        try {
          await withTimeout(c.check(), CHECK_TIMEOUT_MS);
          return [c.name, 'ok'] as const;
        } catch {
          return [c.name, 'unavailable'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    void reply.code(ready ? 200 : 503).header('cache-control', 'no-store');
    return { status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) };
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    void reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });

  // Request rate and latency by route pattern (never the raw URL: ids would explode the series).
  // A callback hook: it runs on every request, and an async one costs a promise and a turn each.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics' && route !== '/healthz' && route !== '/readyz') {
      recordHttpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });
}
