import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOps } from '../../helpers/ops.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// Issue 18, point 3: readiness and metrics describe the deployment (every route pattern, queue
// depths, webhook outcomes, which stores answer): they are served on the operations listener
// only. The public listener keeps a plain /healthz for load balancers, and the public /docs
// carries the same kind of security headers as every page.
let server: TestServer;
let opsUrl: string;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(async () => {
  await server.close();
});

describe('the public listener', () => {
  it('does not serve /metrics or /readyz, under any spelling', async () => {
    for (const path of ['/metrics', '/readyz', '/METRICS', '/%6detrics', '//readyz', '/readyz/']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toMatch(/verity_|database/);
    }
  });

  it('keeps /healthz as a plain up answer without details', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves /docs with a strict CSP that forbids framing, and nosniff; /api/openapi.json stays public', async () => {
    for (const path of ['/docs', '/docs/static/swagger-ui-bundle.js', '/docs/json']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("default-src 'none'");
      expect(csp, path).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      await res.arrayBuffer();
    }
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(200);
  });
});

describe('the operations listener', () => {
  beforeAll(async () => {
    opsUrl = await listenOps(server);
  });

  it('is on loopback by default', () => {
    expect(server.config.metricsHost).toBe('127.0.0.1');
  });

  it('serves /healthz, /readyz and /metrics, and nothing of the API', async () => {
    expect((await fetch(`${opsUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${opsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', blobs: 'ok' } });
    const metrics = await fetch(`${opsUrl}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toContain('verity_http_requests_total');
    expect((await fetch(`${opsUrl}/api/users`)).status).toBe(404);
    expect((await fetch(`${opsUrl}/docs`)).status).toBe(404);
  });
});
