import { CodeSentResponse, TotpEnrolment, TwoStepSmsRequest, TwoStepVerified, TwoStepVerifyRequest } from '../../../src/api/contract.js';
import { acceptLanguage, who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { sendTwoStepSms } from './sms.js';
import { enrolTotp, verifyTwoStep } from './use-cases.js';

const hide = { hide: true };

/** `POST /session/methods/two_step/totp`, `…/sms/send` and `…/verify`. */
export const twoStepRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/two_step/totp', { schema: { ...hide, response: { 200: TotpEnrolment } } }, async (req) => enrolTotp(kit, who(req).user));
  app.post('/session/methods/two_step/sms/send', { schema: { ...hide, body: TwoStepSmsRequest, response: { 200: CodeSentResponse } } }, async (req) =>
    sendTwoStepSms(kit, who(req).user, req.body, acceptLanguage(req)),
  );
  app.post('/session/methods/two_step/verify', { schema: { ...hide, body: TwoStepVerifyRequest, response: { 200: TwoStepVerified } } }, async (req) =>
    verifyTwoStep(kit, who(req).user, req.body),
  );
};
