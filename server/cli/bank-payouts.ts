import type { Verity } from '../app.js';
import { listPayouts, markPayoutPaid } from '../methods/bank/payout-admin.js';
import { UsageError, type CliIo } from './io.js';

const USAGE = 'bank-payouts list [--all] | bank-payouts paid ID';

/**
 * `bank-payouts list|paid`: the Bank method's payouts to make by hand (the default payout
 * provider). `list` shows the pending ones with their amounts and accounts (one JSON line each;
 * `--all` adds the paid ones, without either); `paid ID` marks one paid and forgets its
 * instruction. Both are in the audit log, by `cli`.
 */
export async function bankPayoutsCommand({ ctx }: Verity, args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    const all = rest.includes('--all');
    const payouts = await listPayouts(ctx, all ? {} : { status: 'pending' });
    for (const p of payouts) io.out(JSON.stringify(p));
    if (payouts.length === 0) io.out('No payouts to make.');
  } else if (sub === 'paid') {
    const id = /^\d+$/.test(rest[0] ?? '') ? Number(rest[0]) : undefined;
    if (id === undefined) throw new UsageError('bank-payouts paid ID');
    if (!(await markPayoutPaid(ctx, id, { email: 'cli', req: {}, actor: { id: null, email: 'cli' } }))) throw new UsageError(`No pending payout with id ${id}`);
    io.out(`Marked payout #${id} paid`);
  } else {
    throw new UsageError(USAGE);
  }
}
