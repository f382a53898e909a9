/**
 * The dashboard's sign-in providers contract (`/admin/api/oidc-providers`): the OpenID Connect
 * providers of the Social Account and Payment Account steps, never their secrets.
 */
import * as z from 'zod/mini';
import { dataOf } from './common.js';

export const SignInProviderListing = z.object({
  id: z.int(),
  purpose: z.enum(['social', 'payment']),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  scopes: z.string(),
  updated_at: z.string(),
});
export type SignInProviderListing = z.infer<typeof SignInProviderListing>;

/** The providers and the redirect URI to register with each. */
export const SignInProvidersAnswer = z.object({ data: z.array(SignInProviderListing), redirect_uri: z.string() });
export type SignInProvidersAnswer = z.infer<typeof SignInProvidersAnswer>;
export const SignInProviderAnswer = dataOf(SignInProviderListing);
