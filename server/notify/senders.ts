import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { PermanentFailure, RetryLater } from '../queue/queue.js';
import type { RenderedMessage } from './messages.js';
import { writeOutboxMessage } from './outbox.js';

/** Sends e-mail. A thrown error retries the job; `PermanentFailure` ends it. */
export interface EmailSender {
  readonly name: string;
  send(to: string, fromName: string, message: RenderedMessage): Promise<void>;
}

/** Sends SMS to an E.164 number. Same error contract as {@link EmailSender}. */
export interface SmsSender {
  readonly name: string;
  send(to: string, message: RenderedMessage): Promise<void>;
}

/** The default: messages become files in `<dataDir>/outbox/`, listed in the dashboard. */
export class OutboxEmailSender implements EmailSender {
  readonly name = 'outbox';
  constructor(
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}
  async send(to: string, _fromName: string, message: RenderedMessage): Promise<void> {
    await writeOutboxMessage(this.dataDir, {
      channel: 'email',
      to,
      subject: message.subject,
      text: message.text,
      locale: message.locale,
      created_at: this.clock.now().toISOString(),
      ...(message.userId !== undefined ? { user_id: message.userId } : {}),
    });
  }
}

export class OutboxSmsSender implements SmsSender {
  readonly name = 'outbox';
  constructor(
    private readonly dataDir: string,
    private readonly clock: Clock,
  ) {}
  async send(to: string, message: RenderedMessage): Promise<void> {
    await writeOutboxMessage(this.dataDir, {
      channel: 'sms',
      to,
      subject: message.subject,
      text: message.text,
      locale: message.locale,
      created_at: this.clock.now().toISOString(),
      ...(message.userId !== undefined ? { user_id: message.userId } : {}),
    });
  }
}

/** SMTP through nodemailer (`VERITY_SMTP_URL`, e.g. `smtps://user:pass@mail.example.com`). */
export class SmtpEmailSender implements EmailSender {
  readonly name = 'smtp';
  readonly #transport: Transporter;
  constructor(
    smtpUrl: string,
    private readonly fromAddress: string,
  ) {
    this.#transport = nodemailer.createTransport(smtpUrl);
  }
  async send(to: string, fromName: string, message: RenderedMessage): Promise<void> {
    try {
      await this.#transport.sendMail({
        from: { name: fromName, address: this.fromAddress },
        to,
        subject: message.subject,
        text: message.text,
        headers: { 'Content-Language': message.locale, 'Auto-Submitted': 'auto-generated' },
      });
    } catch (error: unknown) {
      // 5xx from the server (bad recipient, refused content) will not get better by retrying.
      const code = (error as { responseCode?: unknown }).responseCode;
      if (typeof code === 'number' && code >= 500 && code < 600) throw new PermanentFailure(`SMTP ${code}`);
      throw error;
    }
  }
  close(): void {
    this.#transport.close();
  }
}

/**
 * An SMS provider with Twilio's REST shape: `POST {url}/2010-04-01/Accounts/{sid}/Messages.json`,
 * form fields `To`, `From`, `Body`, HTTP Basic auth with the account SID and auth token. Other
 * providers with the same shape (or a gateway in front of any provider) work with `VERITY_SMS_URL`.
 */
export class TwilioSmsSender implements SmsSender {
  readonly name = 'twilio';
  constructor(
    private readonly options: { url: string; accountSid: string; authToken: string; from: string },
    private readonly timeoutMs = 15_000,
  ) {}
  async send(to: string, message: RenderedMessage): Promise<void> {
    const { url, accountSid, authToken, from } = this.options;
    const response = await fetch(`${url}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ To: to, From: from, Body: message.text }).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    // Drain the body so the connection can be reused; its content (provider ids) is not needed.
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return;
    if (response.status === 429 || response.status >= 500) {
      const retryAfter = Number(response.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0) throw new RetryLater(retryAfter * 1000, `SMS provider ${response.status}`);
      throw new Error(`SMS provider answered ${response.status}`);
    }
    throw new PermanentFailure(`SMS provider refused the message (${response.status})`);
  }
}

export interface Senders {
  email: EmailSender;
  sms: SmsSender;
}

/** The senders the configuration asks for: SMTP and the SMS provider when configured, else the outbox. */
export function sendersFromConfig(config: Config, clock: Clock): Senders {
  const host = new URL(config.baseUrl).hostname;
  return {
    email: config.smtpUrl
      ? new SmtpEmailSender(config.smtpUrl, config.mailFrom ?? `no-reply@${host.includes('.') ? host : `${host}.localdomain`}`)
      : new OutboxEmailSender(config.dataDir, clock),
    sms: config.sms ? new TwilioSmsSender(config.sms) : new OutboxSmsSender(config.dataDir, clock),
  };
}
