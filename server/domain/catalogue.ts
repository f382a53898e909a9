/**
 * Verification methods and statuses (spec 2.2). Ids are the spec's; keys are stable names. Where
 * the spec gives no key we chose one, and `Selfie` (only named in template type lists) got id 22.
 */
export const METHODS = [
  { id: 1, key: 'email', name: 'Email' },
  { id: 2, key: 'phone', name: 'Phone / SMS' },
  { id: 3, key: 'document_id', name: 'Document / ID' },
  { id: 4, key: 'payment_account', name: 'Payment Account' },
  { id: 5, key: 'video', name: 'Video' },
  { id: 6, key: 'voice', name: 'Voice' },
  { id: 7, key: 'secure_card', name: 'Secure Card' },
  { id: 8, key: 'geolocation', name: 'Geolocation' },
  { id: 9, key: 'social_account', name: 'Social Account' },
  { id: 10, key: 'two_step', name: 'Two-Step Authentication' },
  { id: 11, key: 'bank', name: 'Bank' },
  { id: 12, key: 'live_video', name: 'Live Video' },
  { id: 13, key: 'biometric_id', name: 'Biometric ID' },
  { id: 20, key: 'liveness', name: 'Liveness' },
  { id: 21, key: 'knowledge', name: 'Knowledge' },
  { id: 22, key: 'selfie', name: 'Selfie' },
] as const;

export type Method = (typeof METHODS)[number];
export type MethodKey = Method['key'];
export type MethodId = Method['id'];

export const EMAIL_METHOD_ID = 1;
export const DOCUMENT_METHOD_ID = 3;

/** Verification status values (spec 2.2). */
export const VerificationStatus = {
  assigned: 0,
  processing: 1,
  complete: 2,
  rejected: 3,
  complete_in_review: 4,
  reset: 5,
  removed: 6,
} as const;
export type VerificationStatusKey = keyof typeof VerificationStatus;
export type VerificationStatusValue = (typeof VerificationStatus)[VerificationStatusKey];

export const STATUS_KEYS = Object.keys(VerificationStatus) as VerificationStatusKey[];

/** Labels in user read responses. Value 0 reads `Pending` here but `Assigned` in webhooks (spec 2.2). */
const READ_LABELS: Record<VerificationStatusValue, string> = {
  0: 'Pending',
  1: 'Processing',
  2: 'Complete',
  3: 'Rejected',
  4: 'Complete In Review',
  5: 'Reset',
  6: 'Removed',
};

export function friendlyStatus(value: VerificationStatusValue, audience: 'read' | 'webhook'): string {
  if (audience === 'webhook' && value === 0) return 'Assigned';
  return READ_LABELS[value];
}

export function methodById(id: number): Method | undefined {
  return METHODS.find((m) => m.id === id);
}

/** Resolves a method given as key, numeric id, or numeric string (spec 4.5: both forms accepted). */
export function resolveMethod(ref: string | number): Method | undefined {
  if (typeof ref === 'number') return methodById(ref);
  const trimmed = ref.trim();
  if (/^\d+$/.test(trimmed)) return methodById(Number(trimmed));
  const lower = trimmed.toLowerCase();
  return METHODS.find((m) => m.key === lower || m.name.toLowerCase() === lower);
}

export function resolveStatus(ref: string | number): VerificationStatusValue | undefined {
  const n = typeof ref === 'number' ? ref : /^\d+$/.test(ref.trim()) ? Number(ref.trim()) : undefined;
  if (n !== undefined) return (Object.values(VerificationStatus) as number[]).includes(n) ? (n as VerificationStatusValue) : undefined;
  const key = String(ref).trim().toLowerCase() as VerificationStatusKey;
  return key in VerificationStatus ? VerificationStatus[key] : undefined;
}

/** User statuses (spec 3.1). */
export const USER_STATUSES = ['Unconfirmed', 'Active', 'Verified', 'Banned', 'Review'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Changes into these statuses fire `user.status.changed` (spec 3.1). */
export const NOTIFIED_USER_STATUSES: readonly UserStatus[] = ['Active', 'Verified', 'Review', 'Banned'];

export function resolveUserStatus(value: string): UserStatus | undefined {
  const lower = value.trim().toLowerCase();
  return USER_STATUSES.find((s) => s.toLowerCase() === lower);
}

/** role_id values (architecture.md). */
export const Role = { admin: 1, endUser: 2 } as const;
