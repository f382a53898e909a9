import { parseArgs } from 'node:util';
import type { Verity } from '../app.js';
import { resolveMethod } from '../domain/catalogue.js';
import { EVENT_TYPES, type EventType } from '../domain/verification-rules.js';
import { checkUrlTarget, createEndpoint, endpointView, EndpointInputError, rotateSecret, signingSecrets, updateEndpoint } from '../webhooks/endpoints.js';
import { deleteEndpoint, findEndpoint, listEndpoints } from '../webhooks/endpoints-repo.js';
import { getDelivery, listDeliveries, retryDelivery, RetryRefused, sendTestPayload } from '../webhooks/log.js';
import type { DeliveryState } from '../webhooks/schema.js';
import { SigningSecretError } from '../crypto/webhook-secrets.js';
import { ConfigError } from '../config.js';
import { UsageError, type CliIo } from './io.js';

export const WEBHOOKS_USAGE = `webhooks create --url URL [--events a,b] [--methods email,phone] [--description D]
  webhooks list | webhooks delete ID | webhooks enable ID | webhooks disable ID
  webhooks reveal ID | webhooks rotate ID [--overlap-hours H] | webhooks test ID [--type T]
  webhooks deliveries [--endpoint ID] [--state pending|succeeded|failed] [--type T] [--user ID] [--test] [--page N]
  webhooks delivery ID [--reveal] | webhooks retry ID`;

function id(value: string | undefined, usage: string): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(usage);
  return Number(value);
}

function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

function methodIds(value: string | undefined): number[] | undefined {
  return list(value)?.map((ref) => {
    const m = resolveMethod(/^\d+$/.test(ref) ? Number(ref) : ref);
    if (!m) throw new UsageError(`Unknown verification method: ${ref}`);
    return m.id;
  });
}

function eventType(value: string | undefined): EventType | undefined {
  if (value === undefined) return undefined;
  const t = EVENT_TYPES.find((e) => e === value);
  if (!t) throw new UsageError(`Unknown event type: ${value} (one of ${EVENT_TYPES.join(', ')})`);
  return t;
}

/** A secret that cannot be opened under VERITY_SECRET is a configuration fault: said as such, exit 2. */
async function asConfigError<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error: unknown) {
    if (error instanceof SigningSecretError) throw new ConfigError(error.message);
    throw error;
  }
}

/**
 * `webhooks …`: endpoints, secrets, delivery log, retries and test payloads, for operators without
 * the dashboard. Output is JSON, one object per line; `create` prints the secret once, on its last line.
 */
export async function webhooksCommand({ ctx }: Verity, args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  const now = () => ctx.clock.now();
  const out = (v: unknown) => io.out(JSON.stringify(v));
  try {
    switch (sub) {
      case 'create': {
        const { values } = parseArgs({
          args: rest,
          options: { url: { type: 'string' }, events: { type: 'string' }, methods: { type: 'string' }, description: { type: 'string' } },
        });
        if (!values.url) throw new UsageError('webhooks create --url URL [--events a,b] [--methods email,phone]');
        await checkUrlTarget(values.url, ctx.config.allowPrivateWebhooks);
        const { row, secret } = await createEndpoint(
          ctx.db,
          { url: values.url, events: list(values.events), methods: methodIds(values.methods), description: values.description },
          now(),
          ctx.config.secret,
        );
        io.out('Created webhook endpoint. The signing secret is shown once (and on explicit `webhooks reveal`):');
        out({ ...endpointView(row, now()), signing_secret: secret });
        return;
      }
      case 'list':
        for (const row of await listEndpoints(ctx.db)) out(endpointView(row, now()));
        return;
      case 'delete': {
        const endpointId = id(rest[0], 'webhooks delete ID');
        if (!(await deleteEndpoint(ctx.db, endpointId))) throw new UsageError(`No webhook endpoint with id ${endpointId}`);
        io.out(`Deleted webhook endpoint #${endpointId}`);
        return;
      }
      case 'enable':
      case 'disable': {
        const endpointId = id(rest[0], `webhooks ${sub} ID`);
        const existing = sub === 'enable' ? await findEndpoint(ctx.db, endpointId) : undefined;
        if (existing) await checkUrlTarget(existing.url, ctx.config.allowPrivateWebhooks);
        const row = await updateEndpoint(ctx.db, endpointId, { enabled: sub === 'enable' }, now());
        if (!row) throw new UsageError(`No webhook endpoint with id ${endpointId}`);
        out(endpointView(row, now()));
        return;
      }
      case 'reveal': {
        const endpointId = id(rest[0], 'webhooks reveal ID');
        const row = await findEndpoint(ctx.db, endpointId);
        if (!row) throw new UsageError(`No webhook endpoint with id ${endpointId}`);
        const [current, previous] = await asConfigError(() => signingSecrets(row, now(), ctx.config.secret));
        out({ id: row.id, signing_secret: current, previous_signing_secret: previous ?? null });
        return;
      }
      case 'rotate': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { 'overlap-hours': { type: 'string' } } });
        const endpointId = id(positionals[0], 'webhooks rotate ID [--overlap-hours H]');
        const hours = values['overlap-hours'] === undefined ? 24 : Number(values['overlap-hours']);
        if (!Number.isFinite(hours) || hours < 0 || hours > 168) throw new UsageError('--overlap-hours must be between 0 and 168');
        const rotated = await asConfigError(() => rotateSecret(ctx.db, endpointId, now(), ctx.config.secret, hours * 3_600_000));
        if (!rotated) throw new UsageError(`No webhook endpoint with id ${endpointId}`);
        out({ ...endpointView(rotated.row, now()), signing_secret: rotated.secret });
        return;
      }
      case 'test': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { type: { type: 'string' } } });
        const endpointId = id(positionals[0], 'webhooks test ID [--type T]');
        const delivery = await sendTestPayload(ctx, endpointId, eventType(values.type));
        if (!delivery) throw new UsageError(`No webhook endpoint with id ${endpointId}`);
        io.out('Queued a test payload; the running server delivers it.');
        out(delivery);
        return;
      }
      case 'deliveries': {
        const { values } = parseArgs({
          args: rest,
          options: {
            endpoint: { type: 'string' },
            state: { type: 'string' },
            type: { type: 'string' },
            user: { type: 'string' },
            test: { type: 'boolean' },
            page: { type: 'string' },
          },
        });
        if (values.state !== undefined && !['pending', 'succeeded', 'failed'].includes(values.state)) {
          throw new UsageError('--state must be pending, succeeded or failed');
        }
        const page = await listDeliveries(ctx, {
          endpointId: values.endpoint === undefined ? undefined : id(values.endpoint, '--endpoint ID'),
          state: values.state as DeliveryState | undefined,
          eventType: eventType(values.type),
          userId: values.user === undefined ? undefined : id(values.user, '--user ID'),
          test: values.test,
          page: values.page === undefined ? undefined : id(values.page, '--page N'),
        });
        for (const d of page.data) out(d);
        io.err(`${page.data.length} of ${page.total} (page ${page.page})`);
        return;
      }
      case 'delivery': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { reveal: { type: 'boolean' } } });
        const deliveryId = id(positionals[0], 'webhooks delivery ID [--reveal]');
        const d = await getDelivery(ctx, deliveryId, { reveal: values.reveal === true });
        if (!d) throw new UsageError(`No delivery with id ${deliveryId}`);
        out(d);
        return;
      }
      case 'retry': {
        const deliveryId = id(rest[0], 'webhooks retry ID');
        const d = await retryDelivery(ctx, deliveryId);
        if (!d) throw new UsageError(`No delivery with id ${deliveryId}`);
        out(d);
        return;
      }
      case 'help':
      case undefined:
        io.out(`  ${WEBHOOKS_USAGE}`);
        return;
      default:
        throw new UsageError(WEBHOOKS_USAGE);
    }
  } catch (error: unknown) {
    if (error instanceof EndpointInputError || error instanceof RetryRefused) throw new UsageError(error.message);
    throw error;
  }
}
