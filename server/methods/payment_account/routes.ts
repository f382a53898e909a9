import { CodeSentResponse, MethodResult, PaymentEmailRequest, VerifyCodeRequest } from '../../../src/api/contract.js';
import { acceptLanguage, who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { sendPaymentCode, verifyPaymentCode } from './use-cases.js';

const hide = { hide: true };

/** `POST /session/methods/payment_account/send` and `…/verify` (its sign-in routes are the shared ones of methods/oidc). */
export const paymentRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/payment_account/send', { schema: { ...hide, body: PaymentEmailRequest, response: { 200: CodeSentResponse } } }, async (req) =>
    sendPaymentCode(kit, who(req).user, req.body.email, acceptLanguage(req)),
  );
  app.post('/session/methods/payment_account/verify', { schema: { ...hide, body: VerifyCodeRequest, response: { 200: MethodResult } } }, async (req) =>
    verifyPaymentCode(kit, who(req).user, req.body.code),
  );
};
