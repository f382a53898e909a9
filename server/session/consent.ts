import { createHash } from 'node:crypto';
import { DEFAULT_CONSENT_VERSION, type ConsentRecord, type ConsentRequest, type ConsentView } from '../../src/api/contract.js';
import type { AppContext } from '../context.js';
import { methodForId } from '../methods/registry.js';
import type { Executor } from '../store/database.js';
import type { AccountSettings } from '../store/repos/settings-repo.js';
import { updateVerificationRow, verificationAttributesOf } from '../store/repos/verifications-repo.js';
import { sessionErrors } from '../errors.js';
import { countryOfIp } from './ip-country.js';
import { methodState } from './state-repo.js';
import { safeHttpUrl } from './safe-url.js';

/** The user's last consent decision (`method_state` under `_consent`; gone with the user). */
export const consentState = methodState<ConsentRecord>('_consent');

/** The version of the consent text the account shows now: its own text's hash, or the default's. */
export function consentTextVersion(settings: Pick<AccountSettings, 'consent'>): string {
  const text = settings.consent.text?.trim();
  if (!text) return DEFAULT_CONSENT_VERSION;
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}`;
}

/** Whether `record` is consent to the text shown now (a changed text asks again). */
export function consentIsCurrent(record: ConsentRecord | undefined, settings: Pick<AccountSettings, 'consent'>): boolean {
  return record?.decision === 'given' && record.text_version === consentTextVersion(settings);
}

/** The consent part of the session view. */
export async function consentView(ex: Executor, settings: AccountSettings, userId: number): Promise<ConsentView> {
  const record = await consentState.read(ex, userId);
  return {
    given: consentIsCurrent(record, settings),
    text: settings.consent.text?.trim() || null,
    privacy_url: safeHttpUrl(settings.consent.privacy_url),
    text_version: consentTextVersion(settings),
  };
}

/** Throws 403 `session_consent_required` unless the user consented to the current text. */
export async function requireConsent(ex: Executor, settings: AccountSettings, userId: number): Promise<void> {
  if (!consentIsCurrent(await consentState.read(ex, userId), settings)) throw sessionErrors.consentRequired();
}

/**
 * `POST /session/consent`: records the decision with its time, the text's version and the
 * country of the request's address (never the address itself). A decision about another version
 * than the current text is refused: the user must see the text that is in force.
 */
export async function recordConsent(ctx: AppContext, settings: AccountSettings, userId: number, body: ConsentRequest, ip: string | null): Promise<void> {
  if (body.text_version !== consentTextVersion(settings)) throw sessionErrors.state('The consent text has changed. Read it again.');
  const record: ConsentRecord = { decision: body.decision, at: ctx.clock.now().toISOString(), text_version: body.text_version, ip_country: countryOfIp(ip) };
  await ctx.db.transaction().execute(async (trx) => {
    await consentState.write(trx, userId, record, ctx.clock.now());
    if (record.decision !== 'given') return;
    // The consent travels with each biometric verification's attributes (webhook payloads, spec 6.3).
    const rows = await verificationAttributesOf(trx, userId);
    for (const row of rows.filter((r) => methodForId(r.method_id)?.biometric === true)) {
      const attributes = {
        ...(JSON.parse(row.attributes) as object),
        consent: { given_at: record.at, text_version: record.text_version, ip_country: record.ip_country },
      };
      await updateVerificationRow(trx, userId, row.method_id, { attributes: JSON.stringify(attributes) });
    }
  });
}
