import { MethodResult, PasskeyOptions, PasskeyVerifyRequest } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { passkeyOptions, passkeyVerify } from './use-cases.js';

const hide = { hide: true };

/** `POST /session/methods/biometric_id/options` and `…/verify`. */
export const biometricIdRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/biometric_id/options', { schema: { ...hide, response: { 200: PasskeyOptions } } }, async (req) => passkeyOptions(kit, who(req)));
  app.post('/session/methods/biometric_id/verify', { schema: { ...hide, body: PasskeyVerifyRequest, response: { 200: MethodResult } } }, async (req) =>
    passkeyVerify(kit, who(req), req.body),
  );
};
