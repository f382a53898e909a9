import Fastify, { type FastifyInstance } from 'fastify';
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
 * `/healthz` on the public listener: the process is alive and its event loop answers, for a load
 * balancer's or an orchestrator's liveness check. Plain up, nothing about the dependencies.
 */
export function registerLiveness(app: FastifyInstance): void {
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
}

/**
 * The operations routes (issue 18, point 3): `/healthz`; `/readyz`, the database, Redis and the
 * blob store answer (for a readiness probe: take out of the load balancer on failure); `/metrics`
 * in Prometheus text format. None needs a key and none says more than up/down per dependency, but
 * `/readyz` and `/metrics` describe the deployment, so they are served only by the operations
 * listener ({@link buildOpsApp}), never by the public one.
 */
export function registerHealthRoutes(app: FastifyInstance, checks: readonly ReadinessCheck[]): void {
  registerLiveness(app);

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
}

/**
 * The operations listener's app: probes and metrics and nothing else. `verity start` and `serve`
 * listen with it on VERITY_METRICS_PORT, `verity worker` on `--probe-port` (or that variable),
 * bound to VERITY_METRICS_HOST (loopback unless configured).
 */
export function buildOpsApp(checks: readonly ReadinessCheck[]): FastifyInstance {
  const ops = Fastify({ logger: false });
  registerHealthRoutes(ops, checks);
  return ops;
}

/**
 * Request rate and latency by route pattern (never the raw URL: ids would explode the series), of
 * the public listener's requests.
 */
export function recordRequestMetrics(app: FastifyInstance): void {
  // A callback hook: it runs on every request, and an async one costs a promise and a turn each.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/healthz') recordHttpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
