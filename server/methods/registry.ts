import type { MethodKey } from '../../src/api/contract.js';
import { documentMethod } from './document_id/index.js';
import { emailMethod } from './email/index.js';
import { geolocationMethod } from './geolocation/index.js';
import { knowledgeMethod } from './knowledge/index.js';
import { livenessMethod } from './liveness/index.js';
import type { BrowserPermission, MethodAdminRoutes, MethodRoutes, MethodSettings, ServerMethod } from './method.js';
import { phoneMethod } from './phone/index.js';
import { paymentAccountMethod } from './payment_account/index.js';
import { selfieMethod } from './selfie/index.js';
import { twoStepMethod } from './two_step/index.js';
import { biometricIdMethod } from './biometric_id/index.js';
import { socialAccountMethod } from './social_account/index.js';
import { videoMethod } from './video/index.js';
import { voiceMethod } from './voice/index.js';
import { bankMethod } from './bank/index.js';
import type { AppContext } from '../context.js';
import { secureCardMethod } from './secure_card/index.js';
import { liveVideoMethod } from './live_video/index.js';

/** Every verification method the session API performs: the one list (adding a method adds one line). */
export const SERVER_METHODS: readonly ServerMethod[] = [
  emailMethod,
  phoneMethod,
  geolocationMethod,
  knowledgeMethod,
  documentMethod,
  selfieMethod,
  livenessMethod,
  twoStepMethod,
  biometricIdMethod,
  socialAccountMethod,
  paymentAccountMethod,
  videoMethod,
  voiceMethod,
  bankMethod,
  secureCardMethod,
  liveVideoMethod,
];

const BY_KEY = new Map<string, ServerMethod>(SERVER_METHODS.map((m) => [m.key, m]));
const BY_ID = new Map<number, ServerMethod>(SERVER_METHODS.flatMap((m) => m.methodIds.map((id) => [id, m] as const)));

/** The method performing a spec method id, if the session API has one. */
export function methodForId(methodId: number): ServerMethod | undefined {
  return BY_ID.get(methodId);
}

/** The method of a step key. */
export function methodForKey(key: MethodKey): ServerMethod | undefined {
  return BY_KEY.get(key);
}

/** The step key of a method id, or `other` for methods this page cannot perform. */
export function stepKeyOf(methodId: number): MethodKey | 'other' {
  return BY_ID.get(methodId)?.key ?? 'other';
}

/**
 * Each distinct route plugin once (methods sharing routes share the function), and whether its
 * routes capture biometrics (then they need consent; a plugin shared with a biometric method does).
 */
export function methodRoutes(): { routes: MethodRoutes; biometric: boolean }[] {
  return [...new Set(SERVER_METHODS.map((m) => m.routes))].map((routes) => ({
    routes,
    biometric: SERVER_METHODS.some((m) => m.routes === routes && m.biometric === true),
  }));
}

/** Whether the step `key` captures biometrics (consent first, issue 24). */
export function isBiometric(key: MethodKey): boolean {
  return BY_KEY.get(key)?.biometric === true;
}

/** Each distinct route plugin served outside the session scope, once. */
export function methodPublicRoutes(): MethodRoutes[] {
  return [...new Set(SERVER_METHODS.flatMap((m) => (m.publicRoutes ? [m.publicRoutes] : [])))];
}

/** Each distinct admin route plugin once (Social and Payment Account share the sign-in providers'). */
export function methodAdminRoutes(): MethodAdminRoutes[] {
  return [...new Set(SERVER_METHODS.flatMap((m) => (m.adminRoutes ? [m.adminRoutes] : [])))];
}

/** The account settings the methods own, every method's fields in one object. */
export function methodSettings(): MethodSettings {
  return Object.assign({}, ...SERVER_METHODS.map((m) => m.settings ?? {})) as MethodSettings;
}

/** Each distinct deletion hook once. */
export function methodDeletionHooks(): NonNullable<ServerMethod['deleteUserData']>[] {
  return [...new Set(SERVER_METHODS.flatMap((m) => (m.deleteUserData ? [m.deleteUserData] : [])))];
}

/** The browser features some method needs, in a stable order. */
export function browserPermissions(): BrowserPermission[] {
  return [...new Set(SERVER_METHODS.flatMap((m) => m.permissions))].sort();
}

/** Registers every method's queue workers. */
export function registerMethodWorkers(ctx: AppContext): void {
  for (const m of SERVER_METHODS) m.workers?.(ctx);
}
