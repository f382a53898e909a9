import * as oidc from 'openid-client';
import type { AppContext } from '../../context.js';
import { fieldError } from '../../errors.js';
import { isLoopbackHttp, issuerProblem, forgetProviderConfig } from './client.js';
import { deleteProvider, insertProvider, type OidcProviderListing } from './providers-repo.js';
import { normaliseScopes } from './rules.js';
import type { OidcPurpose } from './tables.js';

/** A provider as an operator enters it (dashboard or CLI). */
export interface ProviderInput {
  purpose: OidcPurpose;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  scopes?: string | undefined;
}

/**
 * Adds a provider after checking it answers: its issuer URL is https (http only on loopback) and
 * its discovery document reads, so a typo is caught by the operator rather than by the first
 * user. The client secret is sealed under its own label (never shown again).
 */
export async function addProvider(ctx: AppContext, input: ProviderInput): Promise<OidcProviderListing> {
  const issuer = input.issuer.trim().replace(/\/+$/, '');
  const problem = issuerProblem(issuer);
  if (problem) throw fieldError('issuer', problem);
  const scopes = normaliseScopes(input.scopes);
  try {
    await oidc.discovery(new URL(issuer), input.client_id, input.client_secret, undefined, {
      timeout: 10,
      ...(isLoopbackHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  } catch (error: unknown) {
    throw fieldError('issuer', `The provider's discovery document could not be read (${error instanceof Error ? error.message : 'error'}).`);
  }
  return insertProvider(
    ctx.db,
    ctx.config.secret,
    { purpose: input.purpose, name: input.name.trim(), issuer, clientId: input.client_id, clientSecret: input.client_secret, scopes },
    ctx.clock.now(),
  );
}

/** Removes a provider (its sign-ins in flight end with it). */
export async function removeProvider(ctx: AppContext, id: number): Promise<boolean> {
  forgetProviderConfig(id);
  return deleteProvider(ctx.db, id);
}
