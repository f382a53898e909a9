import { matchName } from '../../analysis/stages/name-match.js';
import type { Config } from '../../config.js';
import type { BankAccount } from './rules.js';

/** A person's name as the user record holds it. */
export interface PersonName {
  firstName: string;
  lastName: string;
}

/** How a name compares with the user's: both names, the last name only, or neither. */
export type HolderMatch = 'full' | 'last_name' | 'none';

/** What an open-banking provider says of an account: the holder's name on record (null: no such account) and whether it is the user's. */
export interface AccountHolderCheck {
  name: string | null;
  match: HolderMatch;
}

/**
 * An open-banking provider that can name an account's holder. Implementations must pass the
 * contract test (test/server/methods/bank/open-banking-contract.ts): an unknown account answers
 * `{ name: null, match: 'none' }`, a provider that cannot answer throws {@link OpenBankingUnavailable}.
 */
export interface OpenBankingProvider {
  readonly name: string;
  checkAccountHolder(account: BankAccount, user: PersonName): Promise<AccountHolderCheck>;
}

/** The provider could not answer (down, refused our credentials, answered nonsense). */
export class OpenBankingUnavailable extends Error {
  override name = 'OpenBankingUnavailable';
}

/**
 * A name (the bank's record, or what the user typed) against the user's, with the name matching
 * the documents use (case, accents, order, middle names, one slip per six letters).
 */
export function holderMatch(user: PersonName, name: string): HolderMatch {
  const m = matchName(user, name);
  return m?.full_name ? 'full' : m?.last_name ? 'last_name' : 'none';
}

/**
 * A provider speaking Verity's small account-holder protocol: `POST {url}/account-holder` with
 * `{ country, iban }` or `{ country, routing_number, account_number }` (bearer token when
 * configured) → 200 `{ "name": "…" }`, or 404 when the bank knows no such account. A gateway in
 * front of a real open-banking API answers it. The account number goes in the body, never the URL.
 */
export class HttpOpenBankingProvider implements OpenBankingProvider {
  readonly name = 'open_banking_http';
  constructor(
    private readonly options: { url: string; token: string | undefined },
    private readonly timeoutMs = 10_000,
  ) {}

  async checkAccountHolder(account: BankAccount, user: PersonName): Promise<AccountHolderCheck> {
    const body =
      account.kind === 'iban'
        ? { country: account.country, iban: account.iban }
        : { country: account.country, routing_number: account.routingNumber, account_number: account.accountNumber };
    let response: Response;
    try {
      response = await fetch(`${this.options.url}/account-holder`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
        },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new OpenBankingUnavailable('the open-banking provider did not answer');
    }
    const text = await response.text().catch(() => '');
    if (response.status === 404) return { name: null, match: 'none' };
    if (!response.ok) throw new OpenBankingUnavailable(`the open-banking provider answered ${response.status}`);
    let name: unknown;
    try {
      name = (JSON.parse(text) as { name?: unknown }).name;
    } catch {
      throw new OpenBankingUnavailable('the open-banking provider answered something other than JSON');
    }
    if (typeof name !== 'string' || name.trim() === '' || name.length > 300) throw new OpenBankingUnavailable('the open-banking provider named no holder');
    return { name, match: holderMatch(user, name) };
  }
}

/** The configured provider (VERITY_OPEN_BANKING_URL), or none. */
export function openBankingProvider(config: Config): OpenBankingProvider | undefined {
  return config.openBanking ? new HttpOpenBankingProvider(config.openBanking) : undefined;
}
