import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';

/** An account at the test provider: its subject and e-mail claims. */
export interface ProviderAccount {
  email: string;
  email_verified: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by subject; add or change them in a test. */
  accounts: Map<string, ProviderAccount>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on a loopback port, with one
 * confidential client whose redirect URI is Verity's callback, PKCE required, and the package's
 * development login and consent pages (driven over HTTP by {@link HttpBrowser}).
 */
export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const clientId = 'verity-test-client';
  const clientSecret = 'verity-test-client-secret-0123456789';
  // The issuer names the port, known only once listening: listen first, then mount the provider.
  const mount: { handler?: (req: IncomingMessage, res: ServerResponse) => void } = {};
  const server = createServer((req, res) => mount.handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      { client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
    pkce: { required: () => true },
    cookies: { keys: ['verity-test-cookie-key-0123456789'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  });
  mount.handler = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One HTTP response as the test browser saw it. */
export interface Visit {
  url: string;
  status: number;
  location: string | null;
  text: string;
}

/**
 * A browser without a screen: follows nothing by itself, keeps cookies per host:port (paths are
 * ignored; the names do not clash here), and rewrites Verity's public base URL to the test
 * server's address so the provider's redirect back reaches it.
 */
export class HttpBrowser {
  readonly #cookies = new Map<string, Map<string, string>>();

  constructor(readonly rewrite: (url: string) => string = (u) => u) {}

  async get(url: string): Promise<Visit> {
    return this.request(url, 'GET');
  }

  async request(rawUrl: string, method: 'GET' | 'POST', form?: Record<string, string>): Promise<Visit> {
    const url = this.rewrite(rawUrl);
    const host = new URL(url).host;
    const jar = this.#cookies.get(host) ?? new Map<string, string>();
    this.#cookies.set(host, jar);
    const headers: Record<string, string> = { 'accept-language': 'en' };
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method, headers, redirect: 'manual', body: form ? new URLSearchParams(form).toString() : undefined });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    const location = res.headers.get('location');
    return { url, status: res.status, location: location ? new URL(location, url).toString() : null, text: await res.text() };
  }

  /** Follows redirects from `url` until one leaves for `stopAt` (not followed) or a page answers. */
  async follow(url: string, stopAt?: (next: string) => boolean): Promise<Visit> {
    let visit = await this.get(url);
    for (let hops = 0; hops < 10 && visit.location; hops++) {
      if (stopAt?.(visit.location)) return visit;
      visit = await this.get(visit.location);
    }
    return visit;
  }

  /**
   * Signs in at the test provider from its authorization URL: the login page (as `account`), then
   * consent, up to the redirect back to Verity (returned, not followed). `abort` presses the
   * provider's abort link instead of logging in (the provider answers `access_denied`).
   */
  async signInAtProvider(authorizationUrl: string, account: string, options: { abort?: boolean } = {}): Promise<string> {
    const issuerHost = new URL(authorizationUrl).host;
    const atProvider = (u: string) => new URL(u).host === issuerHost;
    let visit = await this.follow(authorizationUrl, (next) => !atProvider(next));
    for (let rounds = 0; rounds < 4; rounds++) {
      if (visit.location && !atProvider(visit.location)) return visit.location;
      const interaction = /\/interaction\/[^/?#"]+/.exec(visit.url)?.[0];
      if (!interaction) throw new Error(`unexpected provider page ${visit.status} at ${visit.url}`);
      const base = new URL(interaction, visit.url).toString();
      if (options.abort) visit = await this.get(`${base}/abort`);
      else if (/name="login"/.test(visit.text)) visit = await this.request(base, 'POST', { prompt: 'login', login: account, password: 'any' });
      else visit = await this.request(base, 'POST', { prompt: 'consent' });
      if (visit.location && atProvider(visit.location)) visit = await this.follow(visit.location, (next) => !atProvider(next));
    }
    throw new Error('the provider never sent the browser back');
  }
}
