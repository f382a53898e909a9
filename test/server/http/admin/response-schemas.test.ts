/**
 * Issue 19: every admin (`/admin/api/...`) and signup (`/signup/api/...`) route that answers JSON
 * declares a response schema for its success answer (the shared contracts of `src/api/admin/`),
 * so a new route cannot forget one: the dashboard's types come from those schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from '../../../../server/app.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

/** Routes under the JSON prefixes that answer something other than JSON, and why. */
const NOT_JSON = new Map([
  ['GET /admin/api/images/:id', 'image bytes'],
  ['GET /admin/api/live-video/socket', 'a WebSocket'],
]);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(async () => {
  await server.close();
});

const name = (r: DeclaredRoute) => `${String(r.method)} ${r.url}`;

function jsonRoutes(): DeclaredRoute[] {
  return server.verity.routes.filter((r) => /^\/(admin|signup)\/api\//.test(r.url) && r.method !== 'HEAD' && !NOT_JSON.has(name(r)));
}

/** The success statuses a route declares a response schema for. */
function successStatuses(r: DeclaredRoute): string[] {
  const response = (r.schema?.response ?? {}) as Record<string, unknown>;
  return Object.keys(response).filter((status) => /^2\d\d$/.test(status) && response[status] !== undefined);
}

describe('admin and signup JSON routes', () => {
  it('each declare a response schema for their success answer', () => {
    const routes = jsonRoutes();
    // The walk sees the routes of every area (a broken filter would pass with none).
    for (const url of ['/admin/api/users', '/admin/api/webhooks/endpoints', '/admin/api/bank-payouts', '/admin/api/session', '/signup/api/config'])
      expect(routes.map((r) => r.url)).toContain(url);
    expect(routes.length).toBeGreaterThan(55);
    const missing = routes.filter((r) => successStatuses(r).length === 0).map(name);
    expect(missing, 'routes without a response schema (add one in src/api/admin/<area>.ts)').toEqual([]);
  });

  it('leaves out only routes that exist and answer no JSON', () => {
    const all = new Set(server.verity.routes.map(name));
    for (const route of NOT_JSON.keys()) expect(all.has(route), route).toBe(true);
  });
});
