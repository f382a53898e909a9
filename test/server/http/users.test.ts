import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { items, startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('POST /api/users', () => {
  it('creates a user and answers with its id and a signed magic link', async () => {
    const res = await server.api('/api/users', {
      body: { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee', template_id: 'tmpl_id_selfie', reference_id: 'cust-1' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(typeof res.body.id).toBe('number');
    const link = new URL(String(res.body.magic_link));
    expect(link.origin + link.pathname).toBe('http://verity.test/security-verify');
    expect(link.searchParams.get('expires')).toMatch(/^\d+$/);
    expect(link.searchParams.get('key')).toBeTruthy();
    expect(link.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('assigns every method of the template at assigned (Pending)', async () => {
    const created = await server.api('/api/users', { body: { email: 'b@example.com', template_id: 'tmpl_id_selfie' } });
    const res = await server.api(`/api/users/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.verifications).toEqual([
      { id: 3, name: 'Document / ID', status: { value: 0, friendly: 'Pending' } },
      { id: 22, name: 'Selfie', status: { value: 0, friendly: 'Pending' } },
    ]);
    expect(res.body.data.status).toBe('Unconfirmed');
    expect(res.body.data.role_id).toBe(2);
  });

  it('returns every spec 2.1 field with the spec formats', async () => {
    const created = await server.api('/api/users', { body: { email: 'c@example.com', phone: '+44 20 7946 0958', username: 'cee' } });
    const { body } = await server.api(`/api/users/${created.body.id}`);
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'id',
        'first_name',
        'last_name',
        'username',
        'email',
        'verifications',
        'phone',
        'avatar',
        'address',
        'country_id',
        'role_id',
        'status',
        'birthday',
        'last_login',
        'two_factor_country_code',
        'two_factor_phone',
        'two_factor_options',
        'email_verified_at',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(body.data.phone).toBe('+442079460958');
    expect(body.data.username).toBe('cee');
    expect(body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body.data.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('refuses an invalid e-mail and phone with 422 and the fields in errors', async () => {
    const res = await server.api('/api/users', { body: { email: 'not-an-email', phone: '12345' } });
    expect(res.status).toBe(422);
    expect(res.body.error_type).toBe('api_validation_error');
    expect(res.body.error_message).toBe('The given data was invalid.');
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'phone']);
  });

  it('requires the e-mail', async () => {
    const res = await server.api('/api/users', { body: { first_name: 'No Mail' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toBeDefined();
  });

  it('refuses a username that is taken', async () => {
    await server.api('/api/users', { body: { email: 'd1@example.com', username: 'dup' } });
    const res = await server.api('/api/users', { body: { email: 'd2@example.com', username: 'dup' } });
    expect(res.status).toBe(422);
    expect(res.body.error_type).toBe('api_validation_error');
    expect(res.body.errors.username).toHaveLength(1);
  });

  it('answers api_template_error for an unknown template', async () => {
    const res = await server.api('/api/users', { body: { email: 'e@example.com', template_id: 'tmpl_nope' } });
    expect(res.status).toBe(422);
    expect(res.body.error_type).toBe('api_template_error');
    expect(res.body.error_message).toBe('Invalid templateId provided.');
  });

  it('answers api_template_error for an empty template_id rather than creating a user without one', async () => {
    const res = await server.api('/api/users', { body: { email: 'empty-template@example.com', template_id: '' } });
    expect(res.status).toBe(422);
    expect(res.body.error_type).toBe('api_template_error');
    expect((await server.api('/api/users?filter[email]=empty-template@example.com')).body.meta.total).toBe(0);
  });

  it('accepts form-encoded bodies with string booleans', async () => {
    const res = await server.api('/api/users', {
      body: 'email=form%40example.com&send_link=1&template_id=tmpl_email',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
  });

  it('refuses send_sms without a phone', async () => {
    const res = await server.api('/api/users', { body: { email: 'f@example.com', send_sms: true } });
    expect(res.status).toBe(422);
    expect(res.body.errors.phone).toBeDefined();
  });

  it('refuses non-http completion URLs', async () => {
    const res = await server.api('/api/users', { body: { email: 'g@example.com', completion_url: 'javascript:alert(1)' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.completion_url).toBeDefined();
  });
});

describe('GET /api/users/{id}', () => {
  it('answers 404 api_user_error for a missing or non-numeric id', async () => {
    for (const id of ['999999', 'abc']) {
      const res = await server.api(`/api/users/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error_type: 'api_user_error', error_message: 'User Not Found' });
    }
  });
});

describe('PATCH /api/users/{id}', () => {
  it('updates any subset of fields and answers with the user', async () => {
    const created = await server.api('/api/users', { body: { email: 'h@example.com' } });
    const res = await server.api(`/api/users/${created.body.id}`, {
      method: 'PATCH',
      body: { first_name: 'Hana', order_id: 'o-1', phone: '+14155550123' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data.first_name).toBe('Hana');
    expect(res.body.data.phone).toBe('+14155550123');
  });

  it('clears the phone with null (spec 2.1: string or null)', async () => {
    const created = await server.api('/api/users', { body: { email: 'clear-phone@example.com', phone: '+14155550123' } });
    const res = await server.api(`/api/users/${created.body.id}`, { method: 'PATCH', body: { phone: null } });
    expect(res.status).toBe(200);
    expect(res.body.data.phone).toBeNull();
    expect((await server.api(`/api/users/${created.body.id}`)).body.data.phone).toBeNull();
  });

  it('answers api_invalid_error when no data is supplied', async () => {
    const created = await server.api('/api/users', { body: { email: 'i@example.com' } });
    for (const body of [{}, undefined]) {
      const res = await server.api(`/api/users/${created.body.id}`, { method: 'PATCH', body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error_type: 'api_invalid_error', error_message: 'Invalid or No Data Provided for Update' });
    }
  });

  it('switches the template and re-assigns its methods', async () => {
    const created = await server.api('/api/users', { body: { email: 'j@example.com', template_id: 'tmpl_email' } });
    const res = await server.api(`/api/users/${created.body.id}`, { method: 'PATCH', body: { template_id: 'tmpl_selfie' } });
    expect(items(res.body.data.verifications).map((v) => v.id)).toEqual([22]);
  });

  it('refuses an unknown status value', async () => {
    const created = await server.api('/api/users', { body: { email: 'k@example.com' } });
    const res = await server.api(`/api/users/${created.body.id}`, { method: 'PATCH', body: { status: 'Sleeping' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.status).toBeDefined();
  });

  it('accepts the status in any case and stores the spec spelling', async () => {
    const created = await server.api('/api/users', { body: { email: 'l@example.com' } });
    const res = await server.api(`/api/users/${created.body.id}`, { method: 'PATCH', body: { status: 'banned' } });
    expect(res.body.data.status).toBe('Banned');
  });
});

describe('DELETE /api/users/{id}', () => {
  it('deletes the user', async () => {
    const created = await server.api('/api/users', { body: { email: 'm@example.com' } });
    const res = await server.api(`/api/users/${created.body.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await server.api(`/api/users/${created.body.id}`)).status).toBe(404);
    expect((await server.api(`/api/users/${created.body.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('GET /api/users/ref/{reference_id}', () => {
  it('finds the user by the customer reference and includes a magic link', async () => {
    const created = await server.api('/api/users', { body: { email: 'n@example.com', reference_id: 'ext/42' } });
    const res = await server.api(`/api/users/ref/${encodeURIComponent('ext/42')}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(created.body.id);
    expect(String(res.body.magic_link)).toContain('/security-verify?expires=');
    expect((await server.api('/api/users/ref/unknown')).body.error_type).toBe('api_user_error');
  });
});

describe('POST /api/users/{id}/verify-url', () => {
  it('returns a full link valid for expiration_hours and a short link that redirects to it', async () => {
    const created = await server.api('/api/users', { body: { email: 'o@example.com' } });
    const now = server.clock.now().getTime();
    const res = await server.api(`/api/users/${created.body.id}/verify-url`, { body: { expiration_hours: 2 } });
    expect(res.status).toBe(200);
    const full = new URL(String(res.body.full_url));
    expect(Number(full.searchParams.get('expires'))).toBe(Math.floor((now + 2 * 3_600_000) / 1000));
    const short = new URL(String(res.body.short_url));
    expect(short.pathname).toMatch(/^\/l\/[A-Za-z0-9_-]+$/);
    const redirect = await fetch(server.url + short.pathname, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(res.body.full_url);
  });

  it('takes expiration_hours as a number or digits, and refuses anything else', async () => {
    const created = await server.api('/api/users', { body: { email: 'hours@example.com' } });
    const now = server.clock.now().getTime();
    const url = `/api/users/${created.body.id}/verify-url`;
    const digits = await server.api(url, { body: { expiration_hours: '3' } });
    expect(Number(new URL(String(digits.body.full_url)).searchParams.get('expires'))).toBe(Math.floor((now + 3 * 3_600_000) / 1000));
    for (const bad of [true, 1.5, '2h', 0, -1]) {
      const res = await server.api(url, { body: { expiration_hours: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.errors.expiration_hours).toBeDefined();
    }
  });

  it('stops redirecting once the link has expired', async () => {
    const created = await server.api('/api/users', { body: { email: 'p@example.com' } });
    const res = await server.api(`/api/users/${created.body.id}/verify-url`, { body: { expiration_hours: 1 } });
    (server.clock as import('../../helpers/manual-clock.js').ManualClock).advance(3_600_001);
    const redirect = await fetch(server.url + new URL(String(res.body.short_url)).pathname, { redirect: 'manual' });
    expect(redirect.status).toBe(410);
  });
});

describe('avatar', () => {
  it('serves an initials SVG at the user avatar URL', async () => {
    const created = await server.api('/api/users', { body: { email: 'q@example.com', first_name: 'Quinn', last_name: 'Ōta' } });
    const user = await server.api(`/api/users/${created.body.id}`);
    const path = new URL(String(user.body.data.avatar)).pathname;
    const res = await fetch(server.url + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    expect(await res.text()).toContain('>QŌ</text>');
    expect((await fetch(`${server.url}/avatars/00000000-0000-0000-0000-000000000000.svg`)).status).toBe(404);
  });
});
