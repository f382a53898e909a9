import { bankPayoutAdminRoutes } from './admin-routes.js';
import { VerificationStatus } from '../../domain/catalogue.js';
import { reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { registerBankPayoutWorker } from './payouts.js';
import { deleteBankData } from './repo.js';
import { attemptsLeft } from './rules.js';
import { bankRoutes } from './routes.js';
import { bankSettings } from './settings.js';
import { currentAccount, newDepositsLeft, stageOf } from './use-cases.js';

/**
 * Bank (spec method 11): micro-deposits. The user enters an account (IBAN, or US routing and
 * account number); two random amounts are paid into it by the payout provider (by default an
 * operator, from the dashboard's list); the user comes back and enters them.
 */
export const bankMethod: ServerMethod = {
  key: 'bank',
  methodIds: [11],
  permissions: [],
  routes: bankRoutes,
  adminRoutes: bankPayoutAdminRoutes,
  settings: bankSettings,
  async view({ ctx, user, verification }, base) {
    const row = await currentAccount(ctx.db, user.id, verification.method_id);
    const now = ctx.clock.now();
    return {
      ...base,
      key: 'bank',
      needs: {
        stage: stageOf(row, now),
        account: row ? { kind: row.kind === 'us' ? 'us' : 'iban', country: row.country, last4: row.last4, currency: row.currency } : null,
        sent_at: row?.sent_at ?? null,
        expires_at: row?.expires_at ?? null,
        attempts_left: verification.status === VerificationStatus.rejected ? 0 : attemptsLeft(row?.attempts ?? 0),
        new_deposits_left: newDepositsLeft(row),
      },
    };
  },
  // Tries and new deposits that ran out are for the customer or an operator to reset: a retry
  // would hand a guesser three more tries at the same small range of amounts.
  canRetryRejected() {
    return Promise.resolve(false);
  },
  reopen: reopenVerification,
  workers: registerBankPayoutWorker,
  docs: {
    proves:
      "The user controls a bank account: they entered it (an IBAN checked by its checksum and country format, or a US ABA routing number checked by its check digit and an account number), two random deposits of 1–99 cents were paid into it (by default by an operator, from the dashboard), and the user entered both amounts. The account holder name is compared with the user's name (by an open-banking provider when one is configured, else the name the user typed); when it does not match, the method is `complete_in_review`. Three wrong entries reject the method; deposits expire after `bank_deposit_ttl_days` (7 by default), after which the user may ask for new ones twice. Only the last four characters of the account number are kept.",
    attributes: {
      bank_country: "ISO 3166-1 alpha-2 country of the account (the IBAN's, or `US`).",
      account_type: '`iban` or `us` (ABA routing number and account number).',
      account_last4: 'The last four characters of the account number.',
      currency: 'The currency the deposits were paid in.',
      account_holder_name_match: "`full` (first and last name match the user's), `last_name`, or `none`; null when the user has no name on record.",
      account_holder_checked_by: "`open_banking` (the bank's record of the holder) or `entered_name` (the name the user typed).",
      payout_provider: 'Who paid the deposits (`manual`: an operator, from the dashboard).',
      deposit_rounds: 'Pairs of deposits sent (more than 1 after an expiry).',
      deposits_confirmed_at: 'When the user entered the right amounts (`YYYY-MM-DD HH:MM:SS`, UTC); null when rejected.',
      rejected_for: 'On rejection: `attempts_exceeded` (3 wrong entries) or `no_new_deposits`.',
    },
  },
  deleteUserData: deleteBankData,
};
