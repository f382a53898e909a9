import * as oidc from 'openid-client';
import type { OidcProvider } from './providers-repo.js';

/** How long a provider's discovery document and keys are reused before being read again. */
const DISCOVERY_TTL_MS = 10 * 60 * 1000;
/** Discovery, token and userinfo requests give up after this long (the user is waiting). */
const REQUEST_TIMEOUT_S = 10;

const cache = new Map<number, { updatedAt: string; at: number; config: Promise<oidc.Configuration> }>();

/**
 * Plain http is allowed only for a provider on this machine (loopback: development and the
 * tests' own provider); anywhere else the provider must be reached over TLS.
 */
export function isLoopbackHttp(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** The issuer URL an operator may configure: https, or http on loopback; no credentials, query or fragment. */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'The issuer must be a URL.';
  }
  if (url.username || url.password || url.search || url.hash) return 'The issuer must not carry credentials, a query or a fragment.';
  if (url.protocol !== 'https:' && !isLoopbackHttp(issuer)) return 'The issuer must be an https URL (http only on this machine).';
  return undefined;
}

/** The provider's client configuration from its discovery document (cached; a changed provider is read again). */
export function providerConfig(provider: OidcProvider): Promise<oidc.Configuration> {
  const cached = cache.get(provider.id);
  if (cached && cached.updatedAt === provider.updatedAt && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const config = discover(provider);
  cache.set(provider.id, { updatedAt: provider.updatedAt, at: Date.now(), config });
  // A failed discovery is not kept: the next sign-in tries again.
  config.catch(() => cache.delete(provider.id));
  return config;
}

async function discover(provider: OidcProvider): Promise<oidc.Configuration> {
  const insecure = isLoopbackHttp(provider.issuer);
  const config = await oidc.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, {
    timeout: REQUEST_TIMEOUT_S,
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
  config.timeout = REQUEST_TIMEOUT_S;
  // Check the ID token's signature against the provider's published keys too, not only TLS.
  oidc.enableNonRepudiationChecks(config);
  return config;
}

/** What a sign-in needs to remember while the user is at the provider. */
export interface SignInSecrets {
  verifier: string;
  nonce: string;
}

/** A new authorization request: the URL to send the browser to, and what the callback will check. */
export async function authorizationRequest(
  provider: OidcProvider,
  redirectUri: string,
  locale: string | null,
): Promise<{ url: URL; state: string; secrets: SignInSecrets }> {
  const config = await providerConfig(provider);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: provider.scopes,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    // Ask for the sign-in itself each time: the step proves the user can sign in now.
    prompt: 'login',
  };
  if (locale) params.ui_locales = locale;
  return { url: oidc.buildAuthorizationUrl(config, params), state, secrets: { verifier, nonce } };
}

/** The identity a provider vouched for. */
export interface ProvenIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/**
 * Exchanges the callback's code (PKCE verifier, state, nonce and the ID token's issuer, audience,
 * expiry and signature all checked by openid-client) and reads the e-mail claims from the ID token,
 * or from the userinfo endpoint (subject checked) when the ID token carries none.
 */
export async function exchangeCode(provider: OidcProvider, callbackUrl: URL, state: string, secrets: SignInSecrets): Promise<ProvenIdentity> {
  const config = await providerConfig(provider);
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: secrets.verifier,
    expectedState: state,
    expectedNonce: secrets.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('no ID token');
  let email = typeof claims.email === 'string' ? claims.email : null;
  let verified = claims.email_verified === true;
  if (email === null) {
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    email = typeof info.email === 'string' ? info.email : null;
    verified = info.email_verified === true;
  }
  return { issuer: claims.iss, subject: claims.sub, email, emailVerified: email !== null && verified };
}

/** Forgets every cached discovery (a provider was changed or removed). */
export function forgetProviderConfig(id: number): void {
  cache.delete(id);
}
