import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { SettingsView } from '../../src/api/admin/settings.js';
import type { MethodKey, MethodView, SessionState } from '../../src/api/contract.js';
import type { AppContext } from '../context.js';
import type { SessionLimits } from '../session/limits.js';
import type { Executor } from '../store/database.js';
import type { UserRow, UserVerificationRow } from '../store/schema.js';
import type { AccountSettings } from '../store/repos/settings-repo.js';

/** What a method's session call answers (contract `MethodResult`). */
export interface MethodResult {
  method: MethodView;
  state: SessionState;
}

/** The fields every method view shares (contract `methodBase`), filled in by the session core. */
export type MethodViewBase = Omit<MethodView, 'key' | 'needs'>;

/** What a method reads to describe itself to the flow. */
export interface ViewInput {
  ctx: AppContext;
  user: UserRow;
  verification: UserVerificationRow;
  settings: AccountSettings;
}

/**
 * What the session core lends a method's routes and use cases. Handed in (not imported) so that a
 * method module never imports the registry, directly or through a module that does (the session
 * core, the hosted page's headers): the registry → method → … → registry cycle cannot arise
 * (`test/server/methods/module-graph.test.ts`).
 */
export interface SessionKit {
  ctx: AppContext;
  limits: SessionLimits;
  /**
   * The user's assigned verification for `key`, when the user may act on it (404 / 409 otherwise);
   * read through `ex` when given (a transaction checking again what it is about to change).
   */
  requireOpen(user: UserRow, key: MethodKey, ex?: Executor): Promise<UserVerificationRow>;
  /** The method's view after a change, with the flow's state. */
  result(user: UserRow, key: MethodKey): Promise<MethodResult>;
  /** Tells the outbox and the user's progress streams that something changed. */
  changed(userId: number): void;
  /** Sets the hosted page's security headers on a page the method serves itself (its Permissions-Policy is the registry's). */
  hostedHeaders(reply: FastifyReply, nonce: string, settings: AccountSettings): void;
  /** Throws 403 `session_consent_required` unless the user consented to the current text (a biometric method's socket checks it itself). */
  requireConsent(userId: number): Promise<void>;
}

/** The session routes of a method: a Fastify plugin registered inside the session scope. */
export type MethodRoutes = (kit: SessionKit) => FastifyPluginAsyncZod;

/**
 * What the dashboard lends a method's admin routes. Handed in (not imported), as the
 * {@link SessionKit} is, so that a method module never imports the dashboard that lists it.
 */
export interface AdminKit {
  ctx: AppContext;
  /** What `GET /admin/api/settings` answers: a route that changes an account setting answers it too. */
  settingsView(): Promise<SettingsView>;
}

/** The dashboard routes of a method (`/admin/api/…`): a Fastify plugin registered inside the admin scope. */
export type MethodAdminRoutes = (kit: AdminKit) => FastifyPluginAsyncZod;

/**
 * Account settings a method owns that the dashboard's general settings edit
 * (`PATCH /admin/api/settings`): each one's body field, named by its `AccountSettings` key and
 * saved as given (null included; omitted: left as it is).
 */
export type MethodSettings = { readonly [K in keyof AccountSettings]?: z.ZodType<AccountSettings[K] | undefined> };

/** A browser feature a method's capture needs (Permissions-Policy and the iframe's `allow`). */
export type BrowserPermission = 'camera' | 'geolocation' | 'microphone' | 'publickey-credentials-create' | 'publickey-credentials-get';

/**
 * What a user holds for a method beyond one verification (a second factor, a passkey): kept when the
 * method is reset or assigned again (the next visit proves possession), removed only by an operator
 * (a lost phone, a compromised device) or with the user.
 */
export interface MethodEnrolment {
  /** What the user holds, for the operator's user page (no secrets); null when nothing. */
  describe(ex: Executor, ctx: AppContext, userId: number): Promise<Record<string, unknown> | null>;
  /**
   * Removes it, inside the operator's transaction: the next time the method is assigned, the user
   * enrols anew. False when there was nothing (left) to remove: the delete itself decides, so of
   * two removals at once one removes.
   */
  remove(trx: Executor, ctx: AppContext, userId: number): Promise<boolean>;
}

/**
 * One verification method, server side: everything the session core and the rest of the server
 * need to know of it. Listed once in `registry.ts`; nothing else dispatches on method keys.
 */
export interface ServerMethod {
  /** The widget's step key (contract `MethodKey`). */
  readonly key: MethodKey;
  /** The spec's method ids this step performs (a template assigns these). */
  readonly methodIds: readonly number[];
  /** Browser features its capture needs. */
  readonly permissions: readonly BrowserPermission[];
  /**
   * True when its capture is biometric (a face, a voice, an identity document's portrait): the
   * user must consent first (issue 24), and its routes answer 403 `session_consent_required`
   * until they do. A new camera, microphone or biometric method opts in here.
   */
  readonly biometric?: boolean;
  /**
   * Its session routes. Methods that share routes (`/session/methods/:key/send` for e-mail and
   * phone) share the same function, registered once.
   */
  readonly routes: MethodRoutes;
  /**
   * Routes outside the session scope, for a browser a third party sends back (an OpenID Connect
   * provider's redirect carries no session token): no session hooks apply, so each such route
   * authenticates what it is given. Methods sharing them share the function, registered once.
   */
  readonly publicRoutes?: MethodRoutes;
  /**
   * Its dashboard routes, inside the admin scope (admin session, CSRF, Fetch Metadata); each
   * changing route records its audit action. Methods sharing them share the function, registered once.
   */
  readonly adminRoutes?: MethodAdminRoutes;
  /** Its account settings among the dashboard's general settings. */
  readonly settings?: MethodSettings;
  /** The method's view: the shared fields plus its key and `needs`. */
  view(input: ViewInput, base: MethodViewBase): Promise<MethodView>;
  /** Whether a rejected method may be tried again by the user (a reset one always may). */
  canRetryRejected(ctx: AppContext, userId: number): Promise<boolean>;
  /** Puts a rejected or reset method back to `assigned`, inside the retry's transaction. */
  reopen(trx: Executor, ctx: AppContext, userId: number, verification: UserVerificationRow): Promise<void>;
  /**
   * The status the flow shows for the user's verification row, when the method knows better than
   * the row (a document waiting for a second workflow's document). Defaults to the row's status.
   */
  flowStatus?(ex: Executor, userId: number, verification: UserVerificationRow): Promise<number>;
  /**
   * How the customer API's OpenAPI document describes the method (`methods/api-docs.ts`): what a
   * complete status proves, and each key of its `attributes` in webhook payloads (spec 6.3).
   */
  readonly docs?: { readonly proves: string; readonly attributes: Readonly<Record<string, string>> };
  /** Registers the method's queue workers (work that must survive a crash, e.g. Bank's payouts). */
  workers?(ctx: AppContext): void;
  /** What the user enrolled (second factor, passkey), which an operator may remove. */
  readonly enrolment?: MethodEnrolment;
  /** Deletes the method's own rows of a user (inside the deletion's transaction). */
  deleteUserData?(trx: Executor, userId: number): Promise<void>;
}
