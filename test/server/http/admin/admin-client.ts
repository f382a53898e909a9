import { afterEach, beforeEach } from 'vitest';
import { hashPassword } from '../../../../server/auth/passwords.js';
import { ManualClock } from '../../../helpers/manual-clock.js';
import { startTestServer, type Json, type TestServer, type TestServerOptions } from '../../../helpers/server.js';

export const ADMIN_EMAIL = 'root@example.com';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export async function addAdmin(server: TestServer): Promise<void> {
  await server.verity.ctx.db
    .insertInto('admins')
    .values({ email: ADMIN_EMAIL, password_hash: await hashPassword(ADMIN_PASSWORD), created_at: server.clock.now().toISOString() })
    .execute();
}

export interface AdminResponse {
  status: number;
  headers: Headers;
  body: Json;
}

/** A browser-like admin client: keeps the session cookie and sends our own Origin. */
export class AdminClient {
  cookie: string | undefined;
  origin: string | undefined;
  constructor(private readonly server: TestServer) {
    this.origin = server.config.baseUrl;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<AdminResponse> {
    const h: Record<string, string> = { accept: 'application/json', ...headers };
    if (this.cookie) h.cookie = this.cookie;
    if (this.origin && method !== 'GET') h.origin = this.origin;
    if (body !== undefined) h['content-type'] = 'application/json';
    const res = await fetch(this.server.url + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
    const text = await res.text();
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const [pair] = setCookie.split(';');
      this.cookie = pair!.endsWith('=') ? undefined : pair;
    }
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Json };
  }

  async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<AdminResponse> {
    return this.request('POST', '/admin/api/session', { email, password });
  }
}

/** Adds the test admin to `server` and returns a client signed in as them (throws when sign-in fails). */
export async function signedInAdmin(server: TestServer): Promise<AdminClient> {
  await addAdmin(server);
  const admin = new AdminClient(server);
  const res = await admin.login();
  if (res.status !== 200) throw new Error(`admin sign-in failed with ${res.status}`);
  return admin;
}

/** What each test of an admin test file works with. */
export interface AdminTest {
  server: TestServer;
  clock: ManualClock;
  admin: AdminClient;
}

/** The moment every admin test file's clock starts at. */
export const ADMIN_TEST_START = '2026-05-10T12:00:00Z';

/**
 * Before each test of the file: a test server on a manual clock at {@link ADMIN_TEST_START}, with
 * the test admin signed in, handed to `use` (which keeps it in the file's variables); the server is
 * closed after each test. The scale pass (vitest.scale.config.ts) runs files that call it on
 * PostgreSQL too.
 */
export function adminTestServer(use: (test: AdminTest) => void, options: Omit<TestServerOptions, 'clock'> = {}): void {
  let server: TestServer | undefined;
  beforeEach(async () => {
    const clock = new ManualClock(new Date(ADMIN_TEST_START));
    server = await startTestServer({ ...options, clock });
    use({ server, clock, admin: await signedInAdmin(server) });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
}
