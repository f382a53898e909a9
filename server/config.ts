import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy.js';

const boolFromEnv = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const iceUrl = z.string().regex(/^(stun|stuns|turn|turns):[^\s]{1,500}$/);
const iceServersSchema = z
  .array(
    z
      .object({ urls: z.union([iceUrl, z.array(iceUrl).min(1).max(8)]), username: z.string().max(256).optional(), credential: z.string().max(256).optional() })
      .strict(),
  )
  .max(8);

/** The environment variables Verity reads, validated once at boot. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  VERITY_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  VERITY_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  VERITY_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  VERITY_DATA_DIR: z.string().min(1).default('./data'),
  VERITY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  VERITY_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for the embedded SQLite database)')
    .optional(),
  VERITY_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  VERITY_BLOB_URL: z
    .string()
    .regex(/^s3:\/\//, 'must be an s3:// URL')
    .optional(),
  VERITY_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  VERITY_MAIL_FROM: z.string().min(3).optional(),
  VERITY_SMS_URL: z.url({ protocol: /^https?$/ }).optional(),
  VERITY_SMS_ACCOUNT_SID: z.string().min(1).optional(),
  VERITY_SMS_AUTH_TOKEN: z.string().min(1).optional(),
  VERITY_SMS_FROM: z.string().min(1).optional(),
  VERITY_OPEN_BANKING_URL: z.url({ protocol: /^https?$/ }).optional(),
  VERITY_OPEN_BANKING_TOKEN: z.string().min(1).optional(),
  VERITY_DEA_REGISTRY_URL: z.url({ protocol: /^https?$/ }).optional(),
  VERITY_DEA_REGISTRY_TOKEN: z.string().min(1).optional(),
  VERITY_ALLOW_PRIVATE_WEBHOOKS: boolFromEnv.optional(),
  VERITY_TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.reason });
      return z.NEVER;
    }),
  VERITY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Live Video's STUN/TURN servers: a JSON array of RTCIceServer (`[{"urls":"stun:stun.example.org"}]`). */
  VERITY_ICE_SERVERS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return [];
      try {
        const parsed = iceServersSchema.safeParse(JSON.parse(value));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {"urls": "stun:…" | ["turn:…"], "username"?, "credential"?}' });
      return z.NEVER;
    }),
  /** Longest a Live Video call may last, in seconds (the agent decides before; at the limit the call ends). */
  VERITY_LIVE_VIDEO_MAX_CALL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(4 * 3600)
    .default(15 * 60),
  /** Seconds requests in flight at shutdown get to answer before every connection left is closed. */
  VERITY_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  NODE_ENV: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  /**
   * Port of the operations listener (`/healthz`, `/readyz`, `/metrics`; VERITY_METRICS_PORT);
   * undefined: none (the public listener keeps only `/healthz`).
   */
  metricsPort: number | undefined;
  /** Interface of the operations listener (VERITY_METRICS_HOST, loopback by default). */
  metricsHost: string;
  /** Public base URL used in links, without a trailing slash. */
  baseUrl: string;
  dataDir: string;
  /** Server secret for magic links and other signatures. */
  secret: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  blobUrl: string | undefined;
  smtpUrl: string | undefined;
  /** `From` of e-mails sent through SMTP (VERITY_MAIL_FROM); default `Verity <no-reply@host of base URL>`. */
  mailFrom: string | undefined;
  /** Twilio-shaped SMS provider (VERITY_SMS_*); undefined: texts go to the outbox. */
  sms: { url: string; accountSid: string; authToken: string; from: string } | undefined;
  /**
   * Open-banking provider of the Bank method's account-holder name check (VERITY_OPEN_BANKING_URL
   * and _TOKEN, methods/bank/open-banking.ts); undefined: the name the user typed is compared instead.
   */
  openBanking: { url: string; token: string | undefined } | undefined;
  /**
   * Registry that DEA numbers are looked up in (VERITY_DEA_REGISTRY_URL and _TOKEN,
   * services/dea-registry.ts); undefined: none, and results say the number was not checked there.
   */
  deaRegistry: { url: string; token: string | undefined } | undefined;
  allowPrivateWebhooks: boolean;
  /**
   * Proxies whose `X-Forwarded-For` names the client (VERITY_TRUST_PROXY): off, a hop count, or
   * their addresses and ranges. Every per-address limit counts the client it yields.
   */
  trustProxy: TrustProxy;
  logLevel: string;
  /** STUN/TURN servers the Live Video call uses (VERITY_ICE_SERVERS); none by default (loopback, a LAN). */
  iceServers: { urls: string | string[]; username?: string | undefined; credential?: string | undefined }[];
  /** Longest a Live Video call may last, in seconds (VERITY_LIVE_VIDEO_MAX_CALL_SECONDS, default 900). */
  liveVideoMaxCallSeconds: number;
  /**
   * Seconds requests in flight when shutdown starts get to answer; then every connection still
   * open is closed (VERITY_SHUTDOWN_GRACE_SECONDS, default 10).
   */
  shutdownGraceSeconds: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the configuration. A bad value stops the boot with a message naming the
 * variable; nothing starts half-configured.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.VERITY_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const baseUrl = (e.VERITY_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    metricsPort: e.VERITY_METRICS_PORT,
    metricsHost: e.VERITY_METRICS_HOST,
    baseUrl,
    dataDir,
    secret: e.VERITY_SECRET ?? readOrCreateSecret(dataDir),
    databaseUrl: e.VERITY_DATABASE_URL,
    redisUrl: e.VERITY_REDIS_URL,
    blobUrl: e.VERITY_BLOB_URL,
    smtpUrl: e.VERITY_SMTP_URL,
    mailFrom: e.VERITY_MAIL_FROM,
    openBanking: e.VERITY_OPEN_BANKING_URL ? { url: e.VERITY_OPEN_BANKING_URL.replace(/\/+$/, ''), token: e.VERITY_OPEN_BANKING_TOKEN } : undefined,
    deaRegistry: e.VERITY_DEA_REGISTRY_URL ? { url: e.VERITY_DEA_REGISTRY_URL.replace(/\/+$/, ''), token: e.VERITY_DEA_REGISTRY_TOKEN } : undefined,
    sms:
      e.VERITY_SMS_ACCOUNT_SID && e.VERITY_SMS_AUTH_TOKEN && e.VERITY_SMS_FROM
        ? {
            url: (e.VERITY_SMS_URL ?? 'https://api.twilio.com').replace(/\/+$/, ''),
            accountSid: e.VERITY_SMS_ACCOUNT_SID,
            authToken: e.VERITY_SMS_AUTH_TOKEN,
            from: e.VERITY_SMS_FROM,
          }
        : undefined,
    // Development default: loopback receivers are allowed unless a public base URL is configured.
    allowPrivateWebhooks: e.VERITY_ALLOW_PRIVATE_WEBHOOKS ?? e.VERITY_BASE_URL === undefined,
    trustProxy: e.VERITY_TRUST_PROXY,
    logLevel: e.VERITY_LOG_LEVEL,
    iceServers: e.VERITY_ICE_SERVERS,
    liveVideoMaxCallSeconds: e.VERITY_LIVE_VIDEO_MAX_CALL_SECONDS,
    shutdownGraceSeconds: e.VERITY_SHUTDOWN_GRACE_SECONDS,
  };
}

/** The generated secret lives in the data dir so links stay valid across restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  return secret;
}
