import { expect, it } from 'vitest';
import { DeaRegistryUnavailable, type DeaRegistry } from '../../../server/services/dea-registry.js';

/** What the contract's registry peer holds: an active and an inactive registration, and a switch to fail. */
export interface ContractRegistry {
  /** Registrations by number. */
  readonly registrations: ReadonlyMap<string, { status: 'active' | 'inactive'; registrant_name: string }>;
  /** Makes the peer fail (500) until called with false. */
  failing(on: boolean): void;
}

export const CONTRACT_REGISTRATIONS = new Map([
  ['BJ6125341', { status: 'active' as const, registrant_name: 'JONES, BETTY' }],
  ['AB1234563', { status: 'inactive' as const, registrant_name: 'BROWN, ALAN' }],
]);

/**
 * The contract every `DeaRegistry` must pass, run against a peer holding
 * {@link CONTRACT_REGISTRATIONS}: call it inside a `describe` with a factory for the registry under test.
 */
export function deaRegistryContract(setup: () => { registry: DeaRegistry; peer: ContractRegistry }): void {
  it('answers an active registration with its registrant', async () => {
    const { registry } = setup();
    expect(await registry.lookup('BJ6125341')).toEqual({ status: 'active', registrant_name: 'JONES, BETTY' });
  });

  it('answers an inactive registration as inactive', async () => {
    const { registry } = setup();
    expect((await registry.lookup('AB1234563')).status).toBe('inactive');
  });

  it('answers an unknown number with not_found and no name', async () => {
    const { registry } = setup();
    expect(await registry.lookup('MS0000000')).toEqual({ status: 'not_found', registrant_name: null });
  });

  it('throws DeaRegistryUnavailable when the registry cannot answer, and answers again once it can', async () => {
    const { registry, peer } = setup();
    peer.failing(true);
    await expect(registry.lookup('BJ6125341')).rejects.toBeInstanceOf(DeaRegistryUnavailable);
    peer.failing(false);
    expect((await registry.lookup('BJ6125341')).status).toBe('active');
  });
}
