import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { redactUrl, requestLogSerializer } from '../../../server/links/log-redaction.js';

describe('request log redaction', () => {
  it('drops magic-link queries, hand-off tokens and short-link codes, and keeps other URLs', () => {
    expect(redactUrl('/security-verify?expires=1&key=k&signature=abc')).toBe('/security-verify?[redacted]');
    expect(redactUrl('/security-verify?handoff=tok')).toBe('/security-verify?[redacted]');
    expect(redactUrl('/security-verify')).toBe('/security-verify');
    expect(redactUrl('/l/Abc123')).toBe('/l/[redacted]');
    expect(redactUrl('/api/users?page=2')).toBe('/api/users?page=2');
    expect(redactUrl('/api/users?filter[email]=uma@beta.test&filter[search]=Uma&page=2&per_page=5&sort=-id')).toBe(
      '/api/users?filter[email]=[redacted]&filter[search]=[redacted]&page=2&per_page=5&sort=-id',
    );
    expect(redactUrl('/admin/api/files/f1?expires=1&sig=abc')).toBe('/admin/api/files/f1?expires=[redacted]&sig=[redacted]');
    expect(redactUrl('/api/users/ref/uma@beta.test')).toBe('/api/users/ref/[redacted]');
    expect(redactUrl('/api/users/7')).toBe('/api/users/7');
  });

  it('keeps the link out of a real Fastify request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream, serializers: { req: requestLogSerializer } } });
    app.get('/security-verify', async () => 'ok');
    await app.inject({ url: '/security-verify?expires=1&key=secret-key&signature=deadbeef' });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/security-verify?[redacted]');
    expect(log).not.toContain('secret-key');
    expect(log).not.toContain('deadbeef');
  });
});
