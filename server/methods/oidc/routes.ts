import * as z from 'zod/mini';
import { MethodResult, OIDC_METHOD_KEYS, SignInRequest, SignInResponse, type OidcMethodKey } from '../../../src/api/contract.js';
import { acceptLanguage, who } from '../../http/session/request.js';
import type { UserRow } from '../../store/schema.js';
import type { MethodRoutes, SessionKit } from '../method.js';
import { startPaymentSignIn } from '../payment_account/use-cases.js';
import { startSocialSignIn } from '../social_account/sign-in.js';
import { cancelSignIn } from './sign-in.js';

const KEYS = z.enum(OIDC_METHOD_KEYS);
const hide = { hide: true };

const START: Record<OidcMethodKey, (kit: SessionKit, user: UserRow, providerId: number, locale: string | null) => Promise<SignInResponse>> = {
  social_account: startSocialSignIn,
  payment_account: startPaymentSignIn,
};

/** `POST /session/methods/{social_account|payment_account}/sign-in` and `…/sign-in/cancel`: shared by both steps. */
export const signInRoutes: MethodRoutes = (kit) => async (app) => {
  app.post(
    '/session/methods/:key/sign-in',
    { schema: { ...hide, params: z.object({ key: KEYS }), body: SignInRequest, response: { 200: SignInResponse } } },
    async (req) => START[req.params.key](kit, who(req).user, req.body.provider_id, acceptLanguage(req)),
  );
  app.post('/session/methods/:key/sign-in/cancel', { schema: { ...hide, params: z.object({ key: KEYS }), response: { 200: MethodResult } } }, async (req) => {
    const { user } = who(req);
    await kit.requireOpen(user, req.params.key);
    await cancelSignIn(kit, user, req.params.key);
    return kit.result(user, req.params.key);
  });
};
