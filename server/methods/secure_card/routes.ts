import { MethodResult, SecureCardSubmitFields } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { parseFields, readMultipartParts } from '../uploads.js';
import { submitCard } from './use-cases.js';

/** `POST /session/methods/secure_card/submit` (multipart: what the device read, and the masked picture). */
export const secureCardRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/secure_card/submit', { schema: { hide: true, response: { 200: MethodResult } } }, async (req) => {
    await kit.limits.upload(who(req).user.id);
    const { fields, file } = await readMultipartParts(req, 'image');
    return submitCard(kit, who(req).user, parseFields(SecureCardSubmitFields, fields), file);
  });
};
