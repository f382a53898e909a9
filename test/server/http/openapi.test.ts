import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/openapi.json', () => {
  it('serves a valid OpenAPI 3.1 document covering every customer route', async () => {
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    for (const op of [
      'GET /api/users',
      'POST /api/users',
      'GET /api/users/{id}',
      'PATCH /api/users/{id}',
      'DELETE /api/users/{id}',
      'POST /api/users/{id}/verify-url',
      'GET /api/users/ref/{reference_id}',
      'PATCH /api/users/{user_id}/verifications',
      'DELETE /api/users/{user_id}/verifications/{verification}',
      'GET /api/settings/verifications',
      'GET /api/settings/workflow',
      'GET /api/settings/templates/verifications',
      'GET /api/stats',
      'POST /api/verify-credentials',
    ]) {
      expect(operations).toContain(op);
    }
    const createUser = doc.paths['/api/users']!.post as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(createUser.requestBody.content['application/json']!.schema.required).toEqual(['email']);
  });

  it('describes each method that documents itself, with what it proves and its webhook attributes', async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { info: { description: string } };
    const twoStep = doc.info.description.split('### ').find((s) => s.startsWith('Two-Step Authentication (id 10), key `two_step`'));
    expect(twoStep).toBeDefined();
    for (const key of ['two_factor_method', 'proof', 'enabled_at', 'totp_drift_steps', 'recovery_codes_left', 'two_factor_phone'])
      expect(twoStep).toContain(`\`${key}\``);
    expect(twoStep).toContain('two_factor_options');
  });

  it('serves interactive docs at /docs', async () => {
    const res = await fetch(`${server.url}/docs/`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger-ui');
  });
});
