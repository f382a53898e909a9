import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { codeEmail, magicLinkEmail, MESSAGE_LOCALES, pickLocale } from '../../../server/notify/messages.js';
import { listOutbox } from '../../../server/notify/outbox.js';
import { sealNotifyCode as seal, openNotifyCode as unseal } from '../../../server/crypto/seal.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createUser } from '../session/fixtures.js';

let server: TestServer | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const close of closers.splice(0)) await close();
});

/** A real SMTP server on loopback that keeps the raw messages it receives. */
async function smtpSink(): Promise<{ port: number; received: { from: string; to: string[]; raw: Buffer }[] }> {
  const received: { from: string; to: string[]; raw: Buffer }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  return { port: (smtp.server.address() as AddressInfo).port, received };
}

/** A loopback HTTP server speaking Twilio's Messages API shape. */
async function twilioLike(statuses: number[]): Promise<{ url: string; requests: { path: string; auth: string; form: URLSearchParams }[] }> {
  const requests: { path: string; auth: string; form: URLSearchParams }[] = [];
  const http: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', auth: req.headers.authorization ?? '', form: new URLSearchParams(Buffer.concat(chunks).toString()) });
      const status = statuses.shift() ?? 201;
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '1' } : {}) });
      res.end(JSON.stringify(status === 201 ? { sid: 'SM123', status: 'queued' } : { code: status, message: 'error' }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, requests };
}

describe('notifications', () => {
  it('e-mails the magic link through SMTP (nodemailer) to a real SMTP server, branded and plain', async () => {
    const sink = await smtpSink();
    server = await startTestServer({ env: { VERITY_SMTP_URL: `smtp://127.0.0.1:${sink.port}`, VERITY_MAIL_FROM: 'verify@acme.example' } });
    await writeSetting(server.verity.ctx.db, 'account_name', 'Acme Bank');
    await writeSetting(server.verity.ctx.db, 'default_locale', 'fr-FR');
    const { link } = await createUser(server, { email: 'smtp.user@example.com', send_link: true, first_name: 'Zoé', last_name: 'Secret' });
    await server.verity.ctx.queue.whenIdle();

    expect(sink.received).toHaveLength(1);
    const { from, to, raw } = sink.received[0]!;
    expect(from).toBe('verify@acme.example');
    expect(to).toEqual(['smtp.user@example.com']);
    const mail = await PostalMime.parse(raw);
    expect(mail.from).toMatchObject({ name: 'Acme Bank', address: 'verify@acme.example' });
    expect(mail.subject).toBe('Acme Bank : vérifiez votre identité');
    expect(mail.html).toBeUndefined();
    const sentLink = /(http\S+\/security-verify\?\S+)/.exec(mail.text ?? '')?.[1];
    expect(new URL(sentLink!).searchParams.get('key')).toBe(new URL(link).searchParams.get('key'));
    // No PII beyond the address it is sent to: not the name.
    expect(raw.toString()).not.toMatch(/Zoé|Zo=C3=A9|Secret/);
    expect(mail.headers.find((h) => h.key === 'content-language')?.value).toBe('fr');
    // Nothing went to the outbox.
    expect(await listOutbox(server.config.dataDir)).toHaveLength(0);
  });

  it('retries a message while the SMTP server is down, and delivers it once it is up (never lost)', async () => {
    const sink = await smtpSink();
    const port = sink.port;
    // Point at a port where nothing listens first: close the sink, remember the port.
    await closers.pop()!();
    server = await startTestServer({ env: { VERITY_SMTP_URL: `smtp://127.0.0.1:${port}` } });
    await createUser(server, { email: 'retry@example.com', send_link: true });
    await server.verity.ctx.queue.whenIdle();
    const waiting = await server.verity.ctx.db.selectFrom('jobs').select(['state', 'attempts', 'last_error']).where('queue', '=', 'notify').execute();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ state: 'waiting', attempts: 1 });

    const revived = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _s, cb) {
        stream.resume();
        stream.on('end', () => cb());
      },
    });
    await new Promise<void>((resolve) => revived.listen(port, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => revived.close(() => resolve())));
    (server.clock as unknown as { advance(ms: number): void }).advance(5_000);
    await server.verity.ctx.queue.whenIdle();
    expect(await server.verity.ctx.db.selectFrom('jobs').select('id').where('queue', '=', 'notify').execute()).toHaveLength(0);
  });

  it('texts the magic link through a Twilio-shaped SMS provider, retrying a 429', async () => {
    const sms = await twilioLike([429]);
    server = await startTestServer({
      env: { VERITY_SMS_URL: sms.url, VERITY_SMS_ACCOUNT_SID: 'AC123', VERITY_SMS_AUTH_TOKEN: 'tok', VERITY_SMS_FROM: '+15005550006' },
    });
    await createUser(server, { email: 'sms@example.com', phone: '+447911123456', send_sms: true });
    await server.verity.ctx.queue.whenIdle();
    expect(sms.requests).toHaveLength(1);
    (server.clock as unknown as { advance(ms: number): void }).advance(1_500);
    await server.verity.ctx.queue.whenIdle();
    expect(sms.requests).toHaveLength(2);
    const last = sms.requests[1]!;
    expect(last.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(last.auth).toBe(`Basic ${Buffer.from('AC123:tok').toString('base64')}`);
    expect(last.form.get('To')).toBe('+447911123456');
    expect(last.form.get('From')).toBe('+15005550006');
    expect(last.form.get('Body')).toMatch(/^Verity: verify your identity here: http:\/\/verity\.test\/security-verify\?/);
  });

  it('writes to the outbox by default and lists newest first; drops jobs of deleted users', async () => {
    server = await startTestServer({ workers: false });
    const a = await createUser(server, { email: 'a@example.com', send_link: true });
    await createUser(server, { email: 'b@example.com', phone: '+447911123456', send_link: true, send_sms: true });
    expect((await server.api(`/api/users/${a.id}`, { method: 'DELETE' })).status).toBe(200);
    await server.verity.startWorkers();
    await server.verity.ctx.queue.whenIdle();
    const all = await listOutbox(server.config.dataDir);
    expect(all.map((m) => `${m.channel}:${m.to}`).sort()).toEqual(['email:b@example.com', 'sms:+447911123456']);
    expect(await listOutbox(server.config.dataDir, { channel: 'sms' })).toHaveLength(1);
    expect(await server.verity.ctx.db.selectFrom('jobs').select('id').where('queue', '=', 'notify').execute()).toHaveLength(0);
  });
});

describe('messages', () => {
  it('exist in every widget locale, with the account name and the code or link', () => {
    for (const locale of MESSAGE_LOCALES) {
      const code = codeEmail(locale, 'Acme', '123456', 10);
      expect(code.subject).toContain('Acme');
      expect(code.text).toContain('123456');
      const link = magicLinkEmail(locale, 'Acme', 'https://x.example/security-verify?k=1', 72);
      expect(link.text).toContain('https://x.example/security-verify?k=1');
      expect(link.locale).toBe(locale);
    }
    expect(new Set(MESSAGE_LOCALES.map((l) => codeEmail(l, 'A', '1', 10).subject)).size).toBe(MESSAGE_LOCALES.length);
  });

  it('picks the best locale from Accept-Language, else the account default, else English', () => {
    expect(pickLocale('de-CH,de;q=0.9,en;q=0.8')).toBe('de');
    expect(pickLocale('ja,ar;q=0.5')).toBe('ar');
    expect(pickLocale('ja', 'pt-BR')).toBe('pt');
    expect(pickLocale(null, undefined)).toBe('en');
  });

  it('seals codes so the job table never holds them in clear, and refuses another secret', () => {
    const sealed = seal('s'.repeat(40), '654321');
    expect(sealed).not.toContain('654321');
    expect(unseal('s'.repeat(40), sealed)).toBe('654321');
    expect(() => unseal('t'.repeat(40), sealed)).toThrow();
  });
});
