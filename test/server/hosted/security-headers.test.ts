import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withNonce } from '../../../server/http/hosted/pages.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createUser, local } from '../session/fixtures.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  await writeSetting(server.verity.ctx.db, 'allowed_origins', ['https://shop.example', 'https://app.example:8443/some/path']);
});
afterEach(async () => {
  await server.close();
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** Asserts the hosted security headers and returns the response's nonce. */
function expectHostedHeaders(res: Response, what: string): string {
  const csp = res.headers.get('content-security-policy');
  expect(csp, what).toBeTruthy();
  const d = directives(csp!);
  expect(d.get('default-src'), what).toEqual(["'none'"]);
  const scripts = d.get('script-src') ?? [];
  expect(scripts, what).not.toContain("'unsafe-inline'");
  expect(scripts, what).not.toContain("'unsafe-eval'");
  expect(scripts.some((s) => s === 'data:' || s === '*' || s.startsWith('http'))).toBe(false);
  const nonce = scripts.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
  expect(nonce, what).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(d.get('style-src'), what).not.toContain("'unsafe-inline'");
  expect(d.get('style-src-elem'), what).toBeUndefined();
  expect(d.get('style-src-attr'), what).toEqual(["'unsafe-inline'"]);
  expect(d.get('frame-ancestors'), what).toEqual(["'self'", 'https://shop.example', 'https://app.example:8443']);
  expect(d.get('object-src'), what).toEqual(["'none'"]);
  expect(d.get('base-uri'), what).toEqual(["'none'"]);
  expect(res.headers.get('referrer-policy'), what).toBe('no-referrer');
  const permissions = res.headers.get('permissions-policy') ?? '';
  expect(permissions, what).toContain('camera=(self)');
  expect(permissions, what).toContain('geolocation=(self)');
  // Voice records the user reading a phrase, on our own origin only.
  expect(permissions, what).toContain('microphone=(self)');
  expect(permissions, what).not.toContain('microphone=()');
  // Biometric ID's passkey ceremonies, on our own origin only.
  expect(permissions, what).toContain('publickey-credentials-create=(self)');
  expect(permissions, what).toContain('publickey-credentials-get=(self)');
  // Live Video's call, on our own origin only.
  expect(permissions, what).toContain('microphone=(self)');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('cache-control'), what).toBe('no-store');
  return nonce!;
}

describe('hosted pages send the security headers', () => {
  it('on the landing page, every refusal page and the short links', async () => {
    const { id, link } = await createUser(server, { email: 'h@example.com' });
    const verify = await server.api(`/api/users/${id}/verify-url`, { body: { expiration_hours: 1 } });
    const short = new URL(String(verify.body.short_url)).pathname;
    const bad = new URL(link);
    bad.searchParams.set('key', 'nope');
    const cases: [string, string, number][] = [
      ['landing', local(server, link), 200],
      ['tampered', local(server, bad.toString()), 403],
      ['no query', `${server.url}/security-verify`, 403],
      ['hand-off unknown', `${server.url}/security-verify?handoff=abc`, 410],
      ['short link', `${server.url}${short}`, 302],
      ['short link unknown', `${server.url}/l/zzz`, 403],
    ];
    const nonces = new Set<string>();
    for (const [what, url, status] of cases) {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status, what).toBe(status);
      nonces.add(expectHostedHeaders(res, what));
      const html = await res.text();
      // Every script and style of a page carries this response's nonce.
      for (const tag of html.match(/<(script|style)\b[^>]*>/gi) ?? []) expect(tag, what).toMatch(/nonce="[^"]+"/);
    }
    expect(nonces.size).toBe(cases.length);
  });

  it('the landing page uses the nonce of its own response and starts nothing', async () => {
    const { link } = await createUser(server, { email: 'n@example.com' });
    const res = await fetch(local(server, link));
    const nonce = expectHostedHeaders(res, 'landing');
    const html = await res.text();
    const used = [...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(0);
    expect(new Set(used)).toEqual(new Set([nonce]));
    if (existsSync('dist/web/hosted/index.html')) expect(html).not.toContain("import'data:");
    else expect(html).toContain('Verify your identity');
  });

  it('the JSON API does not carry the hosted headers (kept off the hot path)', async () => {
    const res = await fetch(`${server.url}/api/users`, { headers: { authorization: `Bearer ${server.apiKey}`, 'user-agent': 't' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

describe('withNonce', () => {
  it('adds the nonce to scripts and styles and drops the legacy probe’s data: import', () => {
    const out = withNonce(
      `<script type="module">import'data:text/javascript,if(!import.meta.resolve)throw Error("import.meta.resolve not supported")';import.meta.url;window.x=1</script><style>a{}</style><script nonce="keep">1</script>`,
      'N',
    );
    expect(out).toBe(
      `<script nonce="N" type="module">if(!import.meta.resolve)throw Error("import.meta.resolve not supported");import.meta.url;window.x=1</script><style nonce="N">a{}</style><script nonce="keep">1</script>`,
    );
  });
});
