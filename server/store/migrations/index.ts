import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001-initial.js';
import * as m0002 from './0002-webhooks.js';
import * as m0003 from './0003-sessions.js';
import * as m0004 from './0004-document-jobs.js';
import * as m0005 from './0005-dashboard.js';
import * as m0006 from './0006-list-indexes.js';
import * as m0007 from './0007-webhook-secret-encryption.js';
import * as m0008 from './0008-webhook-pending-index.js';
import * as m0009 from './0009-deferred-user-search.js';
import * as m0010 from './0010-search-index-merging.js';
import * as m0011 from './0011-user-verifications-view-index.js';
import * as m0012 from './0012-search-unicode-case.js';
import * as m0013 from './0013-case-insensitive-sort.js';
import * as m0014 from './0014-orphan-document-workflows.js';
import * as m0015 from './0015-drop-unused-user-indexes.js';
import * as m0016 from './0016-admin-totp-seal-label.js';
import * as m0017 from './0017-sealed-short-links.js';
import * as m0018 from './0018-two-step.js';
import * as m0019 from './0019-oidc.js';
import * as m0020 from './0020-passkeys.js';
import * as m0021 from './0021-review-notes.js';
import * as m0025 from './0025-video.js';
import * as m0023 from './0023-bank.js';
import * as m0022 from './0022-secure-card.js';
import * as m0026 from './0026-live-video.js';
import * as m0029 from './0029-oidc-accounts.js';
import * as m0031 from './0031-duplicates.js';
import * as m0032 from './0032-live-video-deadline.js';
import * as m0033 from './0033-portrait-quality.js';
import type { MigrationContext } from './helpers.js';

/**
 * Migrations are listed here (not discovered from the file system) so they bundle and run the same
 * from source, from a build, and on every dialect. Append new ones (names sort in run order); never edit a shipped one.
 */
const migrations: Record<string, Migration | ((context: MigrationContext) => Migration)> = {
  '0001-initial': m0001,
  '0002-webhooks': m0002,
  '0003-sessions': m0003,
  '0004-document-jobs': m0004,
  '0005-dashboard': m0005,
  '0006-list-indexes': m0006,
  // A data migration that needs the server secret: given the migration context.
  '0007-webhook-secret-encryption': m0007.migration,
  '0008-webhook-pending-index': m0008,
  '0009-deferred-user-search': m0009,
  '0010-search-index-merging': m0010,
  '0011-user-verifications-view-index': m0011,
  '0012-search-unicode-case': m0012,
  '0013-case-insensitive-sort': m0013,
  '0014-orphan-document-workflows': m0014,
  '0015-drop-unused-user-indexes': m0015,
  // Re-seals the admins' TOTP secrets under their own label: needs the server secret too.
  '0016-admin-totp-seal-label': m0016.migration,
  // Seals short links' targets: needs the server secret too.
  '0017-sealed-short-links': m0017.migration,
  '0018-two-step': m0018,
  '0019-oidc': m0019,
  '0020-passkeys': m0020,
  '0021-review-notes': m0021,
  '0025-video': m0025,
  '0023-bank': m0023,
  '0022-secure-card': m0022,
  '0026-live-video': m0026,
  '0029-oidc-accounts': m0029,
  '0031-duplicates': m0031,
  '0032-live-video-deadline': m0032,
  '0033-portrait-quality': m0033,
};

export function migrationProvider(context: MigrationContext = {}): MigrationProvider {
  return {
    getMigrations: async () => Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, typeof m === 'function' ? m(context) : m])),
  };
}
