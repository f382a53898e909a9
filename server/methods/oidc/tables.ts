import type { Generated } from 'kysely';
import { withOwnTables } from '../../store/database.js';

/** Tables of migration `0019-oidc` (sign-in providers and sign-ins in flight). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type OidcTables = {
  oidc_providers: OidcProviderTable;
  oidc_logins: OidcLoginTable;
  oidc_accounts: OidcAccountTable;
};

/** A provider account a user proved (migration `0029-oidc-accounts`), to find it proven by another user. */
export interface OidcAccountTable {
  user_id: number;
  /** `social_account` or `payment_account`. */
  method_key: string;
  /** Keyed hash of the issuer and subject: the same provider account gives the same hash. */
  account_hash: string;
  proven_at: string;
}

/** What a provider configuration is for: the Social Account step or the Payment Account step. */
export type OidcPurpose = 'social' | 'payment';

export interface OidcProviderTable {
  id: Generated<number>;
  purpose: OidcPurpose;
  /** The name users see on the sign-in button ("Google", "PayPal"). */
  name: string;
  /** The issuer URL; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  client_id: string;
  /** The client secret sealed under `SEAL_LABELS.oidcClientSecret`; never returned to anyone. */
  client_secret_sealed: string;
  /** Space-separated scopes asked for (always including `openid`). */
  scopes: string;
  created_at: string;
  updated_at: string;
}

/** One sign-in at a provider, from the step's request to the provider's answer. */
export interface OidcLoginTable {
  id: Generated<number>;
  user_id: number;
  /** The step it is for: `social_account` or `payment_account`. */
  method_key: string;
  provider_id: number;
  /** SHA-256 of the `state` sent to the provider (256 random bits): the callback's only handle. */
  state_hash: string;
  /** SHA-256 of the one-time token of `/oidc/begin`, which opens the sign-in in the browser. */
  begin_hash: string;
  /** SHA-256 of the browser binding put in a cookie by `/oidc/begin`; the callback must bring it. */
  binding_hash: string | null;
  /** `{ verifier, nonce }` (PKCE code verifier and ID-token nonce) sealed under `SEAL_LABELS.oidcLogin`. */
  secrets_sealed: string;
  created_at: string;
  expires_at: string;
  begun_at: string | null;
  /** Set once, by the one callback that claims the sign-in (a replayed state finds it set). */
  finished_at: string | null;
  /** `done`, or the failure: `cancelled`, `provider_error`, `invalid_response`. Null while pending. */
  outcome: string | null;
}

/** The same connection or transaction, typed with the OIDC tables as well. */
export const odb = withOwnTables<OidcTables>();
