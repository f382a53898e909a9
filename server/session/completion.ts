import type { CompleteResponse } from '../../src/api/contract.js';
import type { AppContext } from '../context.js';
import type { UserRow } from '../store/schema.js';
import { readSettings } from '../store/repos/settings-repo.js';
import { sessionErrors } from '../errors.js';
import { endUnclaimedHandoffs } from './handoff.js';
import { flowState } from './view.js';
import { safeHttpUrl } from './safe-url.js';
import { notifyHandoff, notifyProgress } from './progress.js';
import type { SessionRecord } from './sessions.js';
import { flowCompletion } from './state-repo.js';
import { claimedHandoffSessions } from './handoff-repo.js';

/**
 * The completion redirect: the per-user `completion_url`, else `redirect_url` (both set through the
 * API by the customer), else the account default; http(s) only; `reference_id` and `status` set
 * by us (replacing any of the same name). Null when none is configured.
 */
export function completionRedirect(user: UserRow, accountDefault: string | null): string | null {
  for (const candidate of [user.completion_url, user.redirect_url, accountDefault]) {
    const safe = safeHttpUrl(candidate);
    if (!safe) continue;
    const url = new URL(safe);
    url.searchParams.delete('reference_id');
    url.searchParams.delete('status');
    if (user.reference_id !== null) url.searchParams.set('reference_id', user.reference_id);
    url.searchParams.set('status', 'completed');
    return url.toString();
  }
  return null;
}

export async function completeFlow(ctx: AppContext, user: UserRow, session: SessionRecord): Promise<CompleteResponse> {
  const state = await flowState(ctx.db, user.id);
  if (state === 'in_progress') throw sessionErrors.incomplete();
  const now = ctx.clock.now();
  if (state === 'ready_to_complete') {
    await ctx.db.transaction().execute(async (trx) => {
      await flowCompletion.write(trx, user.id, { completed_at: now.toISOString() }, now);
      await endUnclaimedHandoffs(trx, user.id);
    });
  }
  const settings = await readSettings(ctx.db);
  if (session.viaHandoff) {
    const desktops = await claimedHandoffSessions(ctx.db, user.id);
    for (const d of desktops) notifyHandoff(d.session_id, { phase: 'finished', at: now.toISOString() });
  }
  notifyProgress(user.id);
  return { status: 'completed', reference_id: user.reference_id, redirect_url: completionRedirect(user, settings.default_completion_url) };
}
