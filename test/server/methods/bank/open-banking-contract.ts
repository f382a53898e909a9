import { expect, it } from 'vitest';
import { OpenBankingUnavailable, type OpenBankingProvider } from '../../../../server/methods/bank/open-banking.js';
import type { BankAccount } from '../../../../server/methods/bank/rules.js';

/** What the contract's bank peer holds: one IBAN and one US account, and a switch to fail. */
export interface ContractBank {
  /** The holder names it answers for each account (the IBAN, or `routing:account`). */
  readonly holders: ReadonlyMap<string, string>;
  /** Makes the peer fail (500) until called with false. */
  failing(on: boolean): void;
}

export const CONTRACT_IBAN: Extract<BankAccount, { kind: 'iban' }> = {
  kind: 'iban',
  country: 'DE',
  currency: 'EUR',
  iban: 'DE89370400440532013000',
  holderName: 'Jane Doe',
};
export const CONTRACT_US: BankAccount = {
  kind: 'us',
  country: 'US',
  currency: 'USD',
  routingNumber: '021000021',
  accountNumber: '123456789',
  holderName: 'Jane Doe',
};
export const CONTRACT_HOLDERS = new Map([
  ['DE89370400440532013000', 'DOE, JANE MARIE'],
  ['021000021:123456789', 'Jane Doe'],
]);

/**
 * The contract every `OpenBankingProvider` must pass, run against a peer holding
 * {@link CONTRACT_HOLDERS}: call it inside a `describe` with a factory for the provider under test.
 */
export function openBankingContract(setup: () => { provider: OpenBankingProvider; bank: ContractBank }): void {
  const jane = { firstName: 'Jane', lastName: 'Doe' };

  it('names the holder of a known IBAN and matches the user with the documents’ name matching (order, case, middle names)', async () => {
    const { provider } = setup();
    expect(await provider.checkAccountHolder(CONTRACT_IBAN, jane)).toEqual({ name: 'DOE, JANE MARIE', match: 'full' });
  });

  it('names the holder of a known US account', async () => {
    const { provider } = setup();
    expect(await provider.checkAccountHolder(CONTRACT_US, jane)).toEqual({ name: 'Jane Doe', match: 'full' });
  });

  it('says when the holder is someone else, or shares only the last name', async () => {
    const { provider } = setup();
    expect((await provider.checkAccountHolder(CONTRACT_IBAN, { firstName: 'Robert', lastName: 'Smith' })).match).toBe('none');
    expect((await provider.checkAccountHolder(CONTRACT_IBAN, { firstName: 'John', lastName: 'Doe' })).match).toBe('last_name');
  });

  it('answers an unknown account with no name and no match', async () => {
    const { provider } = setup();
    const unknown: BankAccount = { ...CONTRACT_IBAN, iban: 'GB82WEST12345698765432', country: 'GB', currency: 'GBP' };
    expect(await provider.checkAccountHolder(unknown, jane)).toEqual({ name: null, match: 'none' });
  });

  it('throws OpenBankingUnavailable when the bank cannot answer, and answers again once it can', async () => {
    const { provider, bank } = setup();
    bank.failing(true);
    await expect(provider.checkAccountHolder(CONTRACT_IBAN, jane)).rejects.toBeInstanceOf(OpenBankingUnavailable);
    bank.failing(false);
    expect((await provider.checkAccountHolder(CONTRACT_IBAN, jane)).match).toBe('full');
  });
}
