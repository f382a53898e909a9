import type { SettingsView } from '../../../../src/api/admin/settings.js';
import { readDashboardSettings } from '../../../admin/dashboard-settings.js';
import type { AppContext } from '../../../context.js';
import { knowledgeAdminView } from '../../../methods/knowledge/admin-view.js';
import { consentTextVersion } from '../../../session/consent.js';
import { readSettings } from '../../../store/repos/settings-repo.js';

/** What the dashboard reads: account settings without knowledge answer hashes, plus dashboard settings. */
export async function settingsView(ctx: AppContext): Promise<SettingsView> {
  const [s, d] = await Promise.all([readSettings(ctx.db), readDashboardSettings(ctx.db)]);
  return {
    account_name: s.account_name,
    default_completion_url: s.default_completion_url,
    custom_domain: s.custom_domain,
    allowed_origins: s.allowed_origins,
    link_lifetime_hours: s.link_lifetime_hours,
    handoff_enabled: s.handoff_enabled,
    two_step_sms_allowed: s.two_step_sms_allowed,
    bank_deposit_ttl_days: s.bank_deposit_ttl_days,
    default_locale: s.default_locale,
    allowed_countries: s.allowed_countries,
    liveness_move_seconds: s.liveness_move_seconds,
    default_template: s.default_template,
    reverification_template: s.reverification_template,
    branding: s.branding,
    consent: { ...s.consent, text_version: consentTextVersion(s) },
    knowledge: knowledgeAdminView(s.knowledge),
    signup: d.signup,
    retention: d.retention,
    duplicates: d.duplicates,
  };
}
