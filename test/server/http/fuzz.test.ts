import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
  await server.api('/api/users', { body: { email: 'fuzz@example.com', template_id: 'tmpl_id_selfie', reference_id: 'ref-1' } });
});
afterAll(async () => {
  await server.close();
});

const ROUTES: [method: string, path: string][] = [
  ['GET', '/api/users'],
  ['POST', '/api/users'],
  ['GET', '/api/users/{id}'],
  ['PATCH', '/api/users/{id}'],
  ['DELETE', '/api/users/{id}'],
  ['PATCH', '/api/users/{id}/verifications'],
  ['DELETE', '/api/users/{id}/verifications/{v}'],
  ['POST', '/api/users/{id}/verify-url'],
  ['GET', '/api/users/ref/{v}'],
  ['GET', '/api/settings/verifications'],
  ['GET', '/api/settings/workflow'],
  ['GET', '/api/settings/templates/verifications'],
  ['GET', '/api/stats'],
  ['POST', '/api/verify-credentials'],
  ['POST', '/api/verify/document'],
  ['POST', '/api/verify/document/status'],
  ['POST', '/api/user/document/reverify'],
];

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const fieldNames = fc.constantFrom(
  'email',
  'phone',
  'template_id',
  'status',
  'verification_id',
  'current_workflow_id',
  'username',
  'first_name',
  'send_link',
  'send_sms',
  'expiration_hours',
  'custom_verify_data',
  'completion_url',
  'reference_id',
  '__proto__',
  'constructor',
  'user_id',
  'doc_id',
);
const body = fc.oneof(
  fc.dictionary(fieldNames, jsonValue, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  jsonValue.map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constant(''),
);
const pathPart = fc.oneof(
  fc.constantFrom('1', '0', '-1', '999999999999999999999', '1e3', 'abc', '%00', '..', '%2e%2e', 'email', '3', 'ref-1'),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
);
const query = fc
  .dictionary(
    fc.constantFrom('page', 'per_page', 'sort', 'filter[search]', 'filter[email]', 'filter[status]', 'filter', 'page[]'),
    fc.oneof(fc.string({ maxLength: 20 }), fc.integer().map(String)),
    { maxKeys: 4 },
  )
  .map((q) => new URLSearchParams(q).toString());
const contentType = fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', undefined);

describe('every route under random malformed input', () => {
  it('never answers 5xx and always answers errors in the spec shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), pathPart, pathPart, query, body, contentType, async ([method, template], id, v, q, b, ct) => {
        const path = template.replace('{id}', id).replace('{v}', v) + (q ? `?${q}` : '');
        const headers: Record<string, string> = {};
        if (ct) headers['content-type'] = ct;
        const res = await server.api(path, { method, ...(method === 'GET' ? {} : { body: b }), headers });
        expect(res.status, `${method} ${path} ${b}`).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof res.body.error_type, `${method} ${path} → ${res.text}`).toBe('string');
          expect(typeof res.body.error_message).toBe('string');
          if (res.status === 422) expect(typeof res.body.errors).toBe('object');
          expect(res.text).not.toMatch(/\n\s+at /);
        }
      }),
      { numRuns: 400 },
    );
  });
});
