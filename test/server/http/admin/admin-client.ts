import { hashPassword } from '../../../../server/auth/passwords.js';
import type { Json, TestServer } from '../../../helpers/server.js';

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
