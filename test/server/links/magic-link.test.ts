import { describe, expect, it } from 'vitest';
import { buildMagicLink, checkMagicLink } from '../../../server/links/magic-link.js';

const secret = 's'.repeat(64);
const now = new Date('2026-01-01T00:00:00Z');
const expires = Math.floor(now.getTime() / 1000) + 3600;

function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

describe('magic links', () => {
  const link = buildMagicLink('https://verify.example.com', secret, { key: 'abc123', expires });

  it('have the spec shape and verify', () => {
    expect(link).toMatch(/^https:\/\/verify\.example\.com\/security-verify\?expires=\d+&key=abc123&signature=[0-9a-f]{64}$/);
    expect(checkMagicLink(secret, query(link), now)).toEqual({ ok: true, params: { key: 'abc123', expires } });
  });

  it('verify under another host (custom domain) because only path and query are signed', () => {
    const moved = link.replace('https://verify.example.com', 'http://localhost:8080');
    expect(checkMagicLink(secret, query(moved), now).ok).toBe(true);
  });

  it('are refused when any parameter is changed, or with another secret', () => {
    const q = query(link);
    expect(checkMagicLink(secret, { ...q, key: 'abc124' }, now)).toEqual({ ok: false, reason: 'tampered' });
    expect(checkMagicLink(secret, { ...q, expires: String(expires + 1) }, now)).toEqual({ ok: false, reason: 'tampered' });
    expect(checkMagicLink(secret, { ...q, email: 'x@example.com' }, now)).toEqual({ ok: false, reason: 'tampered' });
    expect(checkMagicLink(secret, { ...q, signature: q.signature!.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }, now).ok).toBe(false);
    expect(checkMagicLink('t'.repeat(64), q, now)).toEqual({ ok: false, reason: 'tampered' });
    expect(checkMagicLink(secret, { key: 'abc123' }, now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('are refused once expired', () => {
    expect(checkMagicLink(secret, query(link), new Date((expires + 1) * 1000))).toEqual({ ok: false, reason: 'expired' });
  });
});
