import type { GeolocationRequest } from '../../../src/api/contract.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { moveVerification } from '../../services/verifications.js';
import { sessionErrors } from '../../errors.js';
import { countryOfIp } from '../../session/ip-country.js';
import { methodState } from '../../session/state-repo.js';
import { lockVerification } from '../../session/verification-repo.js';
import type { UserRow } from '../../store/schema.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { updateUserRow } from '../../store/repos/users-repo.js';
import type { MethodResult, SessionKit } from '../method.js';
import { decideLocation, GEOLOCATION_MAX_ATTEMPTS, roundCoordinate } from './rules.js';

/** Submissions used so far (`method_state` under `geolocation`). */
export const geolocationState = methodState<{ attempts_used: number }>('geolocation');

/** Takes the browser's position with the request IP, decides against the allowed area, records both. */
export async function submitGeolocation(kit: SessionKit, user: UserRow, body: GeolocationRequest, ip: string | null): Promise<MethodResult> {
  const { ctx } = kit;
  const v = await kit.requireOpen(user, 'geolocation');
  const settings = await readSettings(ctx.db);
  const decision = decideLocation(body.latitude, body.longitude, settings.allowed_countries);
  const ipCountry = countryOfIp(ip);
  const now = ctx.clock.now();
  const attributes = {
    country: decision.country,
    ip_country: ipCountry,
    latitude: roundCoordinate(body.latitude),
    longitude: roundCoordinate(body.longitude),
    accuracy_m: Math.round(body.accuracy),
    position_time: Number.isFinite(body.timestamp) ? new Date(body.timestamp).toISOString() : null,
  };
  await ctx.db.transaction().execute(async (trx) => {
    // Checked again holding the step: of two submits at once, the later sees the earlier's result
    // (409) instead of recording a second one with its own event.
    await lockVerification(trx, user.id, v.method_id);
    await kit.requireOpen(user, 'geolocation', trx);
    const state = (await geolocationState.read(trx, user.id)) ?? { attempts_used: 0 };
    if (state.attempts_used >= GEOLOCATION_MAX_ATTEMPTS) throw sessionErrors.attemptsExceeded('Too many location attempts.');
    await geolocationState.write(trx, user.id, { attempts_used: state.attempts_used + 1 }, now);
    await updateUserRow(trx, user.id, { last_activity: now.toISOString(), ...(ip ? { ip, ip_country: ipCountry } : {}) });
    await moveVerification(trx, ctx.clock, user.id, v.method_id, decision.ok ? VerificationStatus.complete : VerificationStatus.rejected, {
      attributes,
      remarks: decision.ok ? null : decision.reason,
    });
  });
  kit.changed(user.id);
  if (!decision.ok) throw sessionErrors.locationRejected(decision.reason);
  return kit.result(user, 'geolocation');
}
