import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { geolocationRoutes } from './routes.js';
import { GEOLOCATION_MAX_ATTEMPTS } from './rules.js';
import { geolocationSettings } from './settings.js';
import { geolocationState } from './use-cases.js';

/** Geolocation (spec method 8): the browser's position, checked against the account's allowed countries. */
export const geolocationMethod: ServerMethod = {
  key: 'geolocation',
  methodIds: [8],
  permissions: ['geolocation'],
  routes: geolocationRoutes,
  settings: geolocationSettings,
  view: ({ settings }, base) =>
    Promise.resolve({
      ...base,
      key: 'geolocation',
      needs: { high_accuracy: true, timeout_ms: 20_000, allowed_countries: settings.allowed_countries?.length ? settings.allowed_countries : null },
    }),
  // A rejected position may be sent again until the attempts are used up.
  async canRetryRejected(ctx, userId) {
    return ((await geolocationState.read(ctx.db, userId))?.attempts_used ?? 0) < GEOLOCATION_MAX_ATTEMPTS;
  },
  reopen: reopenVerification,
};
