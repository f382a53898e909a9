import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAnalysisDuration, recordWebhookDelivery, timeAnalysis } from '../../../server/metrics/metrics.js';
import { listenOps } from '../../helpers/ops.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Readiness and metrics are served on the operations listener (VERITY_METRICS_PORT), not the public one.
let server: TestServer;
let ops: string;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
  ops = await listenOps(server);
});
afterAll(async () => {
  await server.close();
});

/** The value of one series in Prometheus text format, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelPart = line.slice(name.length, line.lastIndexOf(' '));
    if (want.every((w) => labelPart.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('health, readiness and metrics', () => {
  it('/healthz answers while the process lives; no key needed', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('/readyz checks every store the configuration uses', async () => {
    const res = await fetch(`${ops}/readyz`);
    expect(res.status).toBe(200);
    const expected: Record<string, string> = { database: 'ok', blobs: 'ok' };
    if (server.config.redisUrl) expected.redis = 'ok';
    expect(await res.json()).toEqual({ status: 'ready', checks: expected });
  });

  it('/readyz answers 503 naming the database when it is gone', async () => {
    const other = await startTestServer({ workers: false });
    await other.verity.ctx.db.destroy();
    try {
      const res = await fetch(`${await listenOps(other)}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'not_ready', checks: { database: 'unavailable' } });
      expect((await fetch(`${other.url}/healthz`)).status).toBe(200);
    } finally {
      await other.close().catch(() => undefined);
    }
  });

  it('/metrics counts requests by route pattern (never raw ids) with a latency histogram, and shows queue depths', async () => {
    const before = await (await fetch(`${ops}/metrics`)).text();
    const count = (text: string, status: string) => sample(text, 'verity_http_requests_total', { method: 'GET', route: '/api/users/:id', status }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await server.api('/api/users/999999')).status).toBe(404);
    expect((await server.api('/api/users', { body: { email: 'm@example.com', send_link: true } })).status).toBe(200);
    const res = await fetch(`${ops}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(count(text, '404') - count(before, '404')).toBe(3);
    expect(text).not.toContain('/api/users/999999');
    expect(sample(text, 'verity_http_request_duration_seconds_count', { method: 'GET', route: '/api/users/:id' })).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(/verity_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/users\/:id"\}/);
    // Workers are off here, so the magic-link e-mail job waits in its queue.
    expect(sample(text, 'verity_queue_jobs', { queue: 'notify', state: 'waiting' })).toBeGreaterThanOrEqual(1);
    expect(text).toContain('verity_process_cpu_seconds_total');
  });

  it('exports delivery outcomes and analysis durations other modules record', async () => {
    recordWebhookDelivery('succeeded');
    recordWebhookDelivery('succeeded');
    recordAnalysisDuration('mrz', 'ok', 0.3);
    await timeAnalysis('total', async () => 1);
    const text = await (await fetch(`${ops}/metrics`)).text();
    expect(sample(text, 'verity_webhook_deliveries_total', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'verity_analysis_duration_seconds_count', { stage: 'mrz', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'verity_analysis_duration_seconds_count', { stage: 'total', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
  });
});
