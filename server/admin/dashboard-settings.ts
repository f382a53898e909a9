import type { Executor } from '../store/database.js';
import { isPostgres } from '../store/migrations/helpers.js';
import { invalidateReadCaches, ReadCache } from '../store/read-cache.js';
import { putSettingText, settingRows } from '../store/repos/settings-repo.js';
import { DUPLICATE_MODES } from '../../src/api/admin/settings.js';

/**
 * Settings only the dashboard and the self-signup page use. They live in the shared `settings`
 * table under their own keys (`readSettings` ignores keys it does not know).
 */
export interface DashboardSettings {
  signup: {
    /** Whether `/signup` accepts registrations. */
    enabled: boolean;
    /** Template (name) given to people who sign up; null: the account's default template. */
    template: string | null;
    /** Ask for first and last name. */
    ask_name: boolean;
    /** Ask for a phone number (optional for the person). */
    ask_phone: boolean;
  };
  retention: {
    /** Days captured images are kept after they were uploaded; null: kept until the user is deleted. */
    images_days: number | null;
    /** Days an unconfirmed self-signup (code never entered) is kept before the user is deleted. */
    unconfirmed_signup_days: number;
  };
  duplicates: {
    /**
     * A document number or face already seen on another user (server/duplicates): `review` flags
     * both users and sends the new capture to review, `flag` only flags them, `off` stores and
     * compares nothing.
     */
    mode: DuplicateMode;
  };
}

export { DUPLICATE_MODES };
export type DuplicateMode = (typeof DUPLICATE_MODES)[number];

export const DEFAULT_DASHBOARD_SETTINGS: DashboardSettings = {
  signup: { enabled: false, template: null, ask_name: true, ask_phone: false },
  retention: { images_days: null, unconfirmed_signup_days: 7 },
  duplicates: { mode: 'review' },
};

const KEYS = { signup: 'dashboard.signup', retention: 'dashboard.retention', duplicates: 'dashboard.duplicates' } as const;
const cache = new ReadCache<DashboardSettings>();

export function readDashboardSettings(ex: Executor): Promise<DashboardSettings> {
  return cache.get(ex, 'dashboard-settings', async () => {
    const rows = await settingRows(ex, Object.values(KEYS));
    const out: DashboardSettings = structuredClone(DEFAULT_DASHBOARD_SETTINGS);
    for (const r of rows) {
      if (r.key === KEYS.signup) out.signup = { ...out.signup, ...(JSON.parse(r.value) as Partial<DashboardSettings['signup']>) };
      if (r.key === KEYS.retention) out.retention = { ...out.retention, ...(JSON.parse(r.value) as Partial<DashboardSettings['retention']>) };
      if (r.key === KEYS.duplicates) out.duplicates = { ...out.duplicates, ...(JSON.parse(r.value) as Partial<DashboardSettings['duplicates']>) };
    }
    return out;
  });
}

export async function writeDashboardSetting<K extends keyof DashboardSettings>(ex: Executor, key: K, value: DashboardSettings[K]): Promise<void> {
  const text = JSON.stringify(value);
  await putSettingText(ex, KEYS[key], text);
  invalidateReadCaches();
}

/**
 * One dashboard setting read inside a transaction `trx` and held until it ends, for a change merged
 * into it (signup, retention): as `readSettingLocked`, on PostgreSQL its row is made when missing
 * and locked (`FOR UPDATE`), so two merges at once keep each other's fields.
 */
export async function readDashboardSettingLocked<K extends 'signup' | 'retention'>(trx: Executor, key: K): Promise<DashboardSettings[K]> {
  const postgres = isPostgres(trx);
  if (postgres)
    await trx
      .insertInto('settings')
      .values({ key: KEYS[key], value: JSON.stringify(DEFAULT_DASHBOARD_SETTINGS[key]) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  let query = trx.selectFrom('settings').select('value').where('key', '=', KEYS[key]);
  if (postgres) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return { ...DEFAULT_DASHBOARD_SETTINGS[key], ...(row ? (JSON.parse(row.value) as Partial<DashboardSettings[K]>) : {}) };
}
