import { describe, expect, it } from 'vitest';
import { friendlyStatus, resolveMethod, resolveStatus, VerificationStatus as S } from '../../../server/domain/catalogue.js';
import { documentStatusFromWorkflows, eventForVerificationMove, isRemovable } from '../../../server/domain/verification-rules.js';

describe('documentStatusFromWorkflows', () => {
  it('is complete only once every workflow is complete or in review', () => {
    expect(documentStatusFromWorkflows([S.complete, S.complete_in_review])).toEqual({ status: S.complete, partial: false });
    expect(documentStatusFromWorkflows([S.complete, S.assigned])).toEqual({ status: S.processing, partial: true });
  });
  it('is rejected when any workflow is rejected, assigned when none started', () => {
    expect(documentStatusFromWorkflows([S.rejected, S.complete])).toEqual({ status: S.rejected, partial: false });
    expect(documentStatusFromWorkflows([S.assigned, S.assigned])).toEqual({ status: S.assigned, partial: false });
    expect(documentStatusFromWorkflows([S.processing, S.assigned])).toEqual({ status: S.processing, partial: false });
  });
  it('leaves removed workflows out: they are no longer assigned to the user', () => {
    expect(documentStatusFromWorkflows([S.complete, S.removed])).toEqual({ status: S.complete, partial: false });
    expect(documentStatusFromWorkflows([S.removed, S.complete_in_review, S.complete])).toEqual({ status: S.complete, partial: false });
    expect(documentStatusFromWorkflows([S.reset, S.removed])).toEqual({ status: S.reset, partial: false });
    expect(documentStatusFromWorkflows([S.processing, S.removed])).toEqual({ status: S.processing, partial: false });
    expect(documentStatusFromWorkflows([S.complete, S.assigned, S.removed])).toEqual({ status: S.processing, partial: true });
  });
  it('is assigned when every workflow is removed, as with no workflows at all', () => {
    expect(documentStatusFromWorkflows([])).toEqual({ status: S.assigned, partial: false });
    expect(documentStatusFromWorkflows([S.removed])).toEqual({ status: S.assigned, partial: false });
    expect(documentStatusFromWorkflows([S.removed, S.removed])).toEqual({ status: S.assigned, partial: false });
  });
});

describe('eventForVerificationMove', () => {
  it('maps moves to the architecture events', () => {
    expect(eventForVerificationMove(S.assigned, S.processing)).toBe('verification.pending');
    expect(eventForVerificationMove(S.processing, S.complete)).toBe('verification.completed');
    expect(eventForVerificationMove(S.processing, S.rejected)).toBe('verification.rejected');
    expect(eventForVerificationMove(S.processing, S.processing, true)).toBe('verification.in-process');
    expect(eventForVerificationMove(S.complete, S.complete)).toBeUndefined();
    expect(eventForVerificationMove(S.complete, S.reset)).toBeUndefined();
  });
});

describe('catalogue', () => {
  it('resolves methods and statuses by key, id and numeric string', () => {
    expect(resolveMethod('document_id')?.id).toBe(3);
    expect(resolveMethod(20)?.key).toBe('liveness');
    expect(resolveMethod('21')?.name).toBe('Knowledge');
    expect(resolveMethod('nope')).toBeUndefined();
    expect(resolveStatus('complete_in_review')).toBe(4);
    expect(resolveStatus(6)).toBe(6);
    expect(resolveStatus(7)).toBeUndefined();
  });
  it('labels value 0 Pending in reads and Assigned in webhooks', () => {
    expect(friendlyStatus(S.assigned, 'read')).toBe('Pending');
    expect(friendlyStatus(S.assigned, 'webhook')).toBe('Assigned');
    expect(friendlyStatus(S.complete, 'read')).toBe('Complete');
  });
  it('only lets assigned methods be removed', () => {
    expect(isRemovable(S.assigned)).toBe(true);
    expect(isRemovable(S.complete)).toBe(false);
    expect(isRemovable(S.rejected)).toBe(false);
  });
});
