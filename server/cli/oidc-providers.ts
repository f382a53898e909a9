import { parseArgs } from 'node:util';
import type { Verity } from '../app.js';
import { ApiError } from '../errors.js';
import { addProvider, removeProvider } from '../methods/oidc/provider-admin.js';
import { listProviders } from '../methods/oidc/providers-repo.js';
import { redirectUriOf } from '../methods/oidc/sign-in.js';
import { UsageError, type CliIo } from './io.js';

const USAGE =
  'oidc-providers add --purpose social|payment --name NAME --issuer URL --client-id ID [--scopes "openid email"] (client secret from VERITY_OIDC_CLIENT_SECRET) | oidc-providers list | oidc-providers remove ID';

/**
 * `oidc-providers add|list|remove`: the sign-in providers of Social Account and Payment Account.
 * The client secret is read from the environment (`VERITY_OIDC_CLIENT_SECRET`), never from the
 * command line, where it would land in shell history and the process list.
 */
export async function oidcProvidersCommand({ ctx }: Verity, args: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'add') {
    const { values } = parseArgs({
      args: rest,
      options: {
        purpose: { type: 'string' },
        name: { type: 'string' },
        issuer: { type: 'string' },
        'client-id': { type: 'string' },
        scopes: { type: 'string' },
      },
    });
    const secret = env.VERITY_OIDC_CLIENT_SECRET;
    if ((values.purpose !== 'social' && values.purpose !== 'payment') || !values.name || !values.issuer || !values['client-id'] || !secret)
      throw new UsageError(USAGE);
    try {
      const p = await addProvider(ctx, {
        purpose: values.purpose,
        name: values.name,
        issuer: values.issuer,
        client_id: values['client-id'],
        client_secret: secret,
        scopes: values.scopes,
      });
      io.out(
        `Added ${p.purpose} sign-in provider #${p.id} "${p.name}" (${p.issuer}). Register this redirect URI with it: ${redirectUriOf(ctx.config.baseUrl)}`,
      );
    } catch (error: unknown) {
      if (error instanceof ApiError) throw new UsageError(JSON.stringify(error.toBody()));
      throw error;
    }
  } else if (sub === 'list') {
    for (const p of await listProviders(ctx.db)) io.out(JSON.stringify(p));
  } else if (sub === 'remove') {
    const id = /^\d+$/.test(rest[0] ?? '') ? Number(rest[0]) : undefined;
    if (id === undefined) throw new UsageError('oidc-providers remove ID');
    if (!(await removeProvider(ctx, id))) throw new UsageError(`No sign-in provider with id ${id}`);
    io.out(`Removed sign-in provider #${id}`);
  } else {
    throw new UsageError(USAGE);
  }
}
