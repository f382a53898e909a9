import type { AppContext } from '../context.js';
import type { Executor } from '../store/database.js';
import { readSettings, type AccountSettings } from '../store/repos/settings-repo.js';

/** The base of links: the account's custom domain when set, else the configured base URL. */
export async function linkBase(ctx: AppContext, ex: Executor = ctx.db, known?: AccountSettings): Promise<string> {
  const settings = known ?? (await readSettings(ex));
  return (settings.custom_domain ?? ctx.config.baseUrl).replace(/\/+$/, '');
}
