import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminUser } from '../../../src/api/admin/users.js';
import { User } from '../../../src/api/user.js';
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

  it("describes the spec's user (spec 2.1) as the shared contract does, which the dashboard reads too", async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { components: { schemas: Record<string, unknown> } };
    const int = { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 };
    const nullable = (type: string) => ({ type: [type, 'null'] });
    // As answered (output): no other keys; as sent (input, `UserInput`): other keys are stripped.
    const user = (output: boolean) => {
      const object = (properties: Record<string, unknown>) => ({
        type: 'object',
        properties,
        required: Object.keys(properties),
        ...(output ? { additionalProperties: false } : {}),
      });
      return object({
        id: int,
        first_name: { type: 'string' },
        last_name: { type: 'string' },
        username: { type: 'string' },
        email: { type: 'string' },
        verifications: { type: 'array', items: object({ id: int, name: { type: 'string' }, status: object({ value: int, friendly: { type: 'string' } }) }) },
        phone: nullable('string'),
        avatar: { type: 'string' },
        address: nullable('string'),
        country_id: { anyOf: [int, { type: 'null' }] },
        role_id: int,
        status: { type: 'string', enum: ['Unconfirmed', 'Active', 'Verified', 'Banned', 'Review'] },
        birthday: nullable('string'),
        last_login: nullable('string'),
        two_factor_country_code: { anyOf: [int, { type: 'null' }] },
        two_factor_phone: nullable('string'),
        two_factor_options: { anyOf: [{ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} }, { type: 'null' }] },
        email_verified_at: nullable('string'),
        created_at: { type: 'string' },
        updated_at: { type: 'string' },
      });
    };
    // Key order included: the document is the same, byte for byte, as when the user was written twice.
    expect(JSON.stringify(doc.components.schemas.User)).toBe(JSON.stringify(user(true)));
    expect(JSON.stringify(doc.components.schemas.UserInput)).toBe(JSON.stringify(user(false)));
    // One definition: the server's schema is built from the contract the dashboard reads.
    expect(AdminUser).toBe(User);
    expect(Object.keys(user(true).properties)).toEqual(Object.keys(User.shape));
  });

  it('serves interactive docs at /docs', async () => {
    const res = await fetch(`${server.url}/docs/`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger-ui');
  });
});
