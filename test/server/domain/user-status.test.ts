import { describe, expect, it } from 'vitest';
import { VerificationStatus as S } from '../../../server/domain/catalogue.js';
import { deriveUserStatus, firesStatusChanged } from '../../../server/domain/user-status.js';

describe('deriveUserStatus', () => {
  it('is Verified when every assigned method is complete', () => {
    expect(deriveUserStatus('Active', [S.complete, S.complete])).toBe('Verified');
    expect(deriveUserStatus('Unconfirmed', [S.complete])).toBe('Verified');
  });
  it('is Review when any method is in review or rejected', () => {
    expect(deriveUserStatus('Active', [S.complete, S.complete_in_review])).toBe('Review');
    expect(deriveUserStatus('Active', [S.rejected, S.assigned])).toBe('Review');
  });
  it('leaves Banned alone whatever the verifications say', () => {
    expect(deriveUserStatus('Banned', [S.complete])).toBe('Banned');
  });
  it('keeps Unconfirmed and Active while work is open, and brings Verified back to Active on a reset', () => {
    expect(deriveUserStatus('Unconfirmed', [S.assigned, S.complete])).toBe('Unconfirmed');
    expect(deriveUserStatus('Active', [S.processing])).toBe('Active');
    expect(deriveUserStatus('Verified', [S.complete, S.reset])).toBe('Active');
  });
  it('ignores removed methods', () => {
    expect(deriveUserStatus('Active', [S.complete, S.removed])).toBe('Verified');
  });
});

describe('firesStatusChanged', () => {
  it('fires for changes into Active, Verified, Review and Banned only', () => {
    expect(firesStatusChanged('Unconfirmed', 'Active')).toBe(true);
    expect(firesStatusChanged('Active', 'Verified')).toBe(true);
    expect(firesStatusChanged('Verified', 'Banned')).toBe(true);
    expect(firesStatusChanged('Banned', 'Unconfirmed')).toBe(false);
    expect(firesStatusChanged('Verified', 'Verified')).toBe(false);
  });
});
