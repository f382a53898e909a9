import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../helpers/manual-clock.js';
import { items, startTestServer, type Json, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const clock = new ManualClock('2026-05-01T00:00:00Z');

const people = [
  ['Zoe', 'Adams', 'zoe@alpha.test'],
  ['Yann', 'Brown', 'yann@beta.test'],
  ['Xena', 'Clark', 'xena@alpha.test'],
  ['Will', 'Davis', 'will@gamma.test'],
  ['Vera', 'Evans', 'vera@alpha.test'],
  ['Uma', 'Fox', 'uma@beta.test'],
  ['Tom', 'Green', 'tom@gamma.test'],
] as const;

beforeAll(async () => {
  server = await startTestServer({ workers: false, clock });
  for (const [first, last, email] of people) {
    clock.advance(60_000);
    await server.api('/api/users', { body: { email, first_name: first, last_name: last } });
  }
  // Two banned users and one Active, for the status filter.
  await server.api('/api/users/2', { method: 'PATCH', body: { status: 'Banned' } });
  await server.api('/api/users/5', { method: 'PATCH', body: { status: 'Banned' } });
  await server.api('/api/users/3', { method: 'PATCH', body: { status: 'Active' } });
});
afterAll(async () => {
  await server.close();
});

const emails = (body: Json) => items(body.data).map((u) => u.email);

describe('GET /api/users pagination', () => {
  it('defaults to 15 per page sorted by id', async () => {
    const res = await server.api('/api/users');
    expect(res.status).toBe(200);
    expect(res.body.meta.per_page).toBe(15);
    expect(items(res.body.data).map((u) => u.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('gives exact links and meta on the first, a middle and the last page', async () => {
    const first = await server.api('/api/users?per_page=3');
    expect(first.body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 3,
      path: 'http://verity.test/api/users',
      per_page: 3,
      to: 3,
      total: 7,
    });
    expect(first.body.links).toEqual({
      first: 'http://verity.test/api/users?per_page=3&page=1',
      last: 'http://verity.test/api/users?per_page=3&page=3',
      prev: null,
      next: 'http://verity.test/api/users?per_page=3&page=2',
    });
    const middle = await server.api('/api/users?per_page=3&page=2');
    expect(middle.body.meta).toMatchObject({ current_page: 2, from: 4, to: 6 });
    expect(middle.body.links.prev).toBe('http://verity.test/api/users?per_page=3&page=1');
    expect(middle.body.links.next).toBe('http://verity.test/api/users?per_page=3&page=3');
    const last = await server.api('/api/users?per_page=3&page=3');
    expect(last.body.meta).toMatchObject({ current_page: 3, from: 7, to: 7 });
    expect(last.body.links.next).toBeNull();
    expect(items(last.body.data)).toHaveLength(1);
  });

  it('answers an empty page past the end with from and to null', async () => {
    const res = await server.api('/api/users?per_page=3&page=9');
    expect(items(res.body.data)).toEqual([]);
    expect(res.body.meta).toMatchObject({ current_page: 9, from: null, to: null, total: 7, last_page: 3 });
  });

  it('caps per_page at 100, however large, and links with the size it used', async () => {
    for (const size of ['1000', '99999999999999999999999']) {
      const res = await server.api(`/api/users?per_page=${size}`);
      expect(res.status).toBe(200);
      expect(res.body.meta.per_page).toBe(100);
      expect(new URL(String(res.body.links.first)).searchParams.get('per_page')).toBe('100');
    }
    expect((await server.api('/api/users?per_page=2.5')).status).toBe(422);
  });

  it('refuses a non-numeric page with 422', async () => {
    const res = await server.api('/api/users?page=abc');
    expect(res.status).toBe(422);
    expect(res.body.errors.page).toBeDefined();
  });
});

describe('GET /api/users filters and sort', () => {
  it('searches case-insensitively in username, names and e-mail', async () => {
    expect(emails((await server.api('/api/users?filter[search]=ALPHA')).body)).toEqual(['zoe@alpha.test', 'xena@alpha.test', 'vera@alpha.test']);
    expect(emails((await server.api('/api/users?filter[search]=gree')).body)).toEqual(['tom@gamma.test']);
    expect(emails((await server.api('/api/users?filter[search]=' + encodeURIComponent('%'))).body)).toEqual([]);
    // Each column on its own: a term spanning first and last name is in neither.
    expect(emails((await server.api('/api/users?filter[search]=' + encodeURIComponent('zoe adams'))).body)).toEqual([]);
    expect(emails((await server.api('/api/users?filter[search]=' + encodeURIComponent('zoe@'))).body)).toEqual(['zoe@alpha.test']);
  });

  it('refuses control characters in filters with 422', async () => {
    for (const query of ['filter[search]=ab%00', 'filter[search]=abc%00def', 'filter[email]=a%00@b.co', 'filter[status]=ban%0Aned']) {
      const res = await server.api(`/api/users?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.error_type).toBe('api_validation_error');
    }
  });

  it('searches with short terms and odd characters too, and follows renames', async () => {
    expect(emails((await server.api('/api/users?filter[search]=FO')).body)).toEqual(['uma@beta.test']);
    expect(emails((await server.api('/api/users?filter[search]=' + encodeURIComponent('a"b OR x'))).body)).toEqual([]);
    await server.api('/api/users/4', { method: 'PATCH', body: { last_name: 'Quixote' } });
    expect(emails((await server.api('/api/users?filter[search]=quix')).body)).toEqual(['will@gamma.test']);
    expect(emails((await server.api('/api/users?filter[search]=davis')).body)).toEqual([]);
    await server.api('/api/users/4', { method: 'PATCH', body: { last_name: 'Davis' } });
  });

  it('filters by exact e-mail and by status in any case', async () => {
    expect(emails((await server.api('/api/users?filter[email]=UMA@beta.test')).body)).toEqual(['uma@beta.test']);
    expect(emails((await server.api('/api/users?filter[email]=uma@beta')).body)).toEqual([]);
    expect(emails((await server.api('/api/users?filter[status]=banned')).body)).toEqual(['yann@beta.test', 'vera@alpha.test']);
  });

  it('sorts ascending or, with a leading minus, descending on each sortable field', async () => {
    expect(emails((await server.api('/api/users?sort=first_name&per_page=3')).body)).toEqual(['tom@gamma.test', 'uma@beta.test', 'vera@alpha.test']);
    expect(emails((await server.api('/api/users?sort=-last_name&per_page=2')).body)).toEqual(['tom@gamma.test', 'uma@beta.test']);
    expect(emails((await server.api('/api/users?sort=-created_at&per_page=1')).body)).toEqual(['tom@gamma.test']);
    expect(emails((await server.api('/api/users?sort=email&per_page=1')).body)).toEqual(['tom@gamma.test']);
    expect(items((await server.api('/api/users?sort=-id')).body.data).map((u) => u.id)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect((await server.api('/api/users?sort=-updated_at')).status).toBe(200);
  });

  it('sorts names and e-mails without regard to case, in both directions and with a search', async () => {
    const created = await server.api('/api/users', { body: { email: 'AARON@zeta.test', first_name: 'aaron', last_name: 'zz-lower' } });
    try {
      expect(emails((await server.api('/api/users?sort=first_name&per_page=2')).body)).toEqual(['AARON@zeta.test', 'tom@gamma.test']);
      expect(emails((await server.api('/api/users?sort=-last_name&per_page=2')).body)).toEqual(['AARON@zeta.test', 'tom@gamma.test']);
      expect(emails((await server.api('/api/users?sort=email&per_page=1')).body)).toEqual(['AARON@zeta.test']);
      expect(emails((await server.api('/api/users?sort=-email&per_page=1')).body)).toEqual(['zoe@alpha.test']);
      expect(emails((await server.api('/api/users?filter[search]=test&sort=first_name&per_page=2')).body)).toEqual(['AARON@zeta.test', 'tom@gamma.test']);
    } finally {
      await server.api(`/api/users/${created.body.id}`, { method: 'DELETE' });
    }
  });

  it('refuses an unknown sort field', async () => {
    const res = await server.api('/api/users?sort=password');
    expect(res.status).toBe(422);
    expect(res.body.errors.sort).toBeDefined();
  });

  it('pages a search and keeps its total on every page, also past the last one', async () => {
    const page = async (n: number) => {
      const res = await server.api(`/api/users?filter[search]=test&sort=email&per_page=3&page=${n}`);
      return { emails: emails(res.body), total: res.body.meta.total, from: res.body.meta.from };
    };
    expect(await page(1)).toEqual({ emails: ['tom@gamma.test', 'uma@beta.test', 'vera@alpha.test'], total: 7, from: 1 });
    expect(await page(3)).toEqual({ emails: ['zoe@alpha.test'], total: 7, from: 7 });
    expect(await page(4)).toEqual({ emails: [], total: 7, from: null });
    // The same with a term too short for the trigram index (a scan on SQLite).
    const short = await server.api('/api/users?filter[search]=te&per_page=3&page=9');
    expect({ emails: emails(short.body), total: short.body.meta.total }).toEqual({ emails: [], total: 7 });
  });

  it('combines filters with AND, and with sort and pagination, keeping them in the links', async () => {
    const res = await server.api('/api/users?filter[search]=alpha&filter[status]=unconfirmed&sort=-first_name&per_page=1&page=1');
    expect(emails(res.body)).toEqual(['zoe@alpha.test']);
    expect(res.body.meta.total).toBe(1);
    const next = await server.api('/api/users?filter[search]=a&sort=-first_name&per_page=2');
    const nextUrl = new URL(String(next.body.links.next));
    expect(nextUrl.searchParams.get('filter[search]')).toBe('a');
    expect(nextUrl.searchParams.get('sort')).toBe('-first_name');
    expect(nextUrl.searchParams.get('per_page')).toBe('2');
    const followed = await server.api(nextUrl.pathname + nextUrl.search);
    expect(followed.body.meta.current_page).toBe(2);
  });

  it('finds a term with a space inside one column, but not across two', async () => {
    const created = await server.api('/api/users', { body: { email: 'mary.ann@delta.example', first_name: 'Mary Ann', last_name: 'Annlee' } });
    try {
      expect(emails((await server.api('/api/users?filter[search]=' + encodeURIComponent('MARY ANN'))).body)).toEqual(['mary.ann@delta.example']);
      expect(emails((await server.api('/api/users?filter[search]=' + encodeURIComponent('ann ann'))).body)).toEqual([]);
      // The end of one column and the start of the next are not one text either.
      expect(emails((await server.api('/api/users?filter[search]=annann')).body)).toEqual([]);
      expect(emails((await server.api('/api/users?filter[search]=' + encodeURIComponent('y a'))).body)).toEqual(['mary.ann@delta.example']);
    } finally {
      await server.api(`/api/users/${created.body.id}`, { method: 'DELETE' });
    }
  });
});
