import { describe, expect, it } from 'vitest';
import { METHOD_KEYS } from '../../../src/api/contract.js';
import { hostedPermissionsPolicy } from '../../../server/http/hosted/security-headers.js';
import { browserPermissions, methodForKey, SERVER_METHODS, stepKeyOf } from '../../../server/methods/registry.js';

describe('method registry', () => {
  it('maps each spec method id the widget performs to its step, and every other id to `other`', () => {
    const steps = Object.fromEntries([1, 2, 3, 7, 8, 10, 11, 12, 13, 20, 21, 22, 4, 9, 6, 5, 99].map((id) => [id, stepKeyOf(id)]));
    expect(steps).toEqual({
      1: 'email',
      2: 'phone',
      3: 'document_id',
      7: 'secure_card',
      8: 'geolocation',
      10: 'two_step',
      12: 'live_video',
      13: 'biometric_id',
      20: 'liveness',
      21: 'knowledge',
      22: 'selfie',
      4: 'payment_account',
      9: 'social_account',
      6: 'voice',
      11: 'bank',
      5: 'video',
      99: 'other',
    });
  });

  it('has one method per contract key and no method id twice', () => {
    expect(SERVER_METHODS.map((m) => m.key).sort()).toEqual([...METHOD_KEYS].sort());
    for (const key of METHOD_KEYS) expect(methodForKey(key)?.key).toBe(key);
    const ids = SERVER_METHODS.flatMap((m) => m.methodIds);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('grants the hosted page the browser features the methods need, and denies the rest', () => {
    expect(browserPermissions()).toEqual(['camera', 'geolocation', 'microphone', 'publickey-credentials-create', 'publickey-credentials-get']);
    expect(hostedPermissionsPolicy(browserPermissions())).toBe(
      'camera=(self), geolocation=(self), microphone=(self), publickey-credentials-create=(self), publickey-credentials-get=(self), payment=(), usb=()',
    );
  });

  it('asks consent before every method whose capture uses the camera or the microphone (issue 24), and before no other', () => {
    const biometric = SERVER_METHODS.filter((m) => m.biometric === true).map((m) => m.key);
    expect(biometric.sort()).toEqual(['document_id', 'live_video', 'liveness', 'secure_card', 'selfie', 'video', 'voice']);
    for (const m of SERVER_METHODS) if (m.permissions.includes('camera') || m.permissions.includes('microphone')) expect(m.biometric, m.key).toBe(true);
  });
});
