import * as z from 'zod/mini';
import { CODE_METHOD_KEYS, CodeSentResponse, MethodResult, VerifyCodeRequest } from '../../../src/api/contract.js';
import { acceptLanguage, who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { sendCode, verifyCode } from './use-cases.js';

const CODE_KEYS = z.enum(CODE_METHOD_KEYS);
const hide = { hide: true };

/** `POST /session/methods/{email|phone}/send` and `…/verify`: shared by the e-mail and phone methods. */
export const codeRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/:key/send', { schema: { ...hide, params: z.object({ key: CODE_KEYS }), response: { 200: CodeSentResponse } } }, async (req) =>
    sendCode(kit, who(req).user, req.params.key, acceptLanguage(req)),
  );
  app.post(
    '/session/methods/:key/verify',
    { schema: { ...hide, params: z.object({ key: CODE_KEYS }), body: VerifyCodeRequest, response: { 200: MethodResult } } },
    async (req) => verifyCode(kit, who(req).user, req.params.key, req.body.code),
  );
};
