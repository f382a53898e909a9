import { parseArgs } from 'node:util';
import { resolveMethod } from '../domain/catalogue.js';
import type { Verity } from '../app.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../store/repos/api-keys-repo.js';
import { templateRefusal } from '../domain/flow-coverage.js';
import { findTemplate, insertTemplate, listTemplates, findWorkflow } from '../store/repos/templates-repo.js';
import { methodById } from '../domain/catalogue.js';
import { createUser } from '../services/users.js';
import { ApiError } from '../errors.js';
import { email } from '../http/schemas.js';
import { UsageError, type CliIo } from './io.js';
import { oidcProvidersCommand } from './oidc-providers.js';
import { bankPayoutsCommand } from './bank-payouts.js';
import { webhooksCommand } from './webhooks.js';

type Handler = (verity: Verity, args: string[], io: CliIo) => Promise<void>;

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive integer`);
  return Number(value);
}

/** `keys create|list|revoke`: API keys. The new key is printed once, alone on the last line. */
const keys: Handler = async ({ ctx }, args, io) => {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, 'rate-per-second': { type: 'string' }, 'rate-per-minute': { type: 'string' } },
    });
    if (!values.name) throw new UsageError('keys create --name NAME [--rate-per-second N --rate-per-minute N]');
    const { row, key } = await createApiKey(ctx.db, {
      name: values.name,
      ratePerSecond: positiveInt(values['rate-per-second'], '--rate-per-second'),
      ratePerMinute: positiveInt(values['rate-per-minute'], '--rate-per-minute'),
      now: ctx.clock.now(),
    });
    io.out(`Created API key #${row.id} "${row.name}" (${row.rate_per_second}/s, ${row.rate_per_minute}/min). It is shown once:`);
    io.out(key);
  } else if (sub === 'list') {
    for (const k of await listApiKeys(ctx.db)) {
      io.out(
        JSON.stringify({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          rate_per_second: k.rate_per_second,
          rate_per_minute: k.rate_per_minute,
          created_at: k.created_at,
          last_used_at: k.last_used_at,
          revoked_at: k.revoked_at,
        }),
      );
    }
  } else if (sub === 'revoke') {
    const id = positiveInt(rest[0], 'ID');
    if (id === undefined) throw new UsageError('keys revoke ID');
    if (!(await revokeApiKey(ctx.db, id, ctx.clock.now()))) throw new UsageError(`No active key with id ${id}`);
    io.out(`Revoked API key #${id}`);
  } else {
    throw new UsageError('keys create|list|revoke');
  }
};

/** `templates create|list`. */
const templates: Handler = async ({ ctx }, args, io) => {
  const [sub, ...rest] = args;
  if (sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, label: { type: 'string' }, methods: { type: 'string' }, workflows: { type: 'string' } },
    });
    if (!values.name || !values.methods) throw new UsageError('templates create --name tmpl_xxx --methods email,phone,document_id,...');
    if (!/^tmpl_[A-Za-z0-9_-]{1,64}$/.test(values.name)) throw new UsageError('--name must look like tmpl_<code>');
    const methodIds = values.methods.split(',').map((ref) => {
      const m = resolveMethod(ref);
      if (!m) throw new UsageError(`Unknown verification method: ${ref}`);
      return m.id;
    });
    const workflowRawIds: number[] = [];
    for (const ref of values.workflows?.split(',') ?? []) {
      const w = await findWorkflow(ctx.db, ref);
      if (!w) throw new UsageError(`Unknown workflow: ${ref}`);
      workflowRawIds.push(w.raw_id);
    }
    if (await findTemplate(ctx.db, { name: values.name })) throw new UsageError(`Template ${values.name} already exists`);
    const refusal = templateRefusal(methodIds);
    if (refusal) throw new UsageError(refusal);
    const id = await insertTemplate(ctx.db, {
      name: values.name,
      label: values.label ?? values.name,
      methodIds: [...new Set(methodIds)],
      workflowRawIds,
      createdAt: ctx.clock.now().toISOString(),
    });
    io.out(JSON.stringify({ id, name: values.name, types: [...new Set(methodIds)].map((m) => methodById(m)!.name) }));
  } else if (sub === 'list') {
    for (const t of await listTemplates(ctx.db)) {
      io.out(JSON.stringify({ id: t.id, name: t.name, label: t.label, types: t.methodIds.map((m) => methodById(m)?.name ?? m) }));
    }
  } else {
    throw new UsageError('templates create|list');
  }
};

/** `users create --email E [--template tmpl_x]`: prints the create-user JSON. */
const users: Handler = async (verity, args, io) => {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('users create --email E [--template tmpl_x] [--custom-verify-data JSON]');
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      template: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      'reference-id': { type: 'string' },
      /** Per-user requirements, e.g. knowledge facts (spec 4.3; see methods/knowledge/facts.ts). */
      'custom-verify-data': { type: 'string' },
    },
  });
  if (!values.email) throw new UsageError('users create --email E [--template tmpl_x] [--custom-verify-data JSON]');
  if (!email.safeParse(values.email).success) throw new UsageError(`Not a valid e-mail address: ${values.email}`);
  try {
    const { user, magicLink } = await createUser(verity.ctx, {
      email: values.email,
      template_id: values.template,
      first_name: values['first-name'],
      last_name: values['last-name'],
      reference_id: values['reference-id'],
      custom_verify_data: values['custom-verify-data'],
    });
    io.out(JSON.stringify({ status: 'success', id: user.id, magic_link: magicLink }));
  } catch (error: unknown) {
    if (error instanceof ApiError) throw new UsageError(JSON.stringify(error.toBody()));
    throw error;
  }
};

export const operatorCommands: Record<string, Handler> = {
  keys,
  templates,
  users,
  webhooks: webhooksCommand,
  'oidc-providers': (verity, args, io) => oidcProvidersCommand(verity, args, io),
  'bank-payouts': bankPayoutsCommand,
};
