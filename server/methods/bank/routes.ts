import { BankAccountRequest, BankVerifyRequest, MethodResult } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { submitAccount, verifyDeposits } from './use-cases.js';

const hide = { hide: true };

/** `POST /session/methods/bank/account` and `…/verify`. */
export const bankRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/bank/account', { schema: { ...hide, body: BankAccountRequest, response: { 200: MethodResult } } }, async (req) =>
    submitAccount(kit, who(req).user, req.body),
  );
  app.post('/session/methods/bank/verify', { schema: { ...hide, body: BankVerifyRequest, response: { 200: MethodResult } } }, async (req) =>
    verifyDeposits(kit, who(req).user, req.body),
  );
};
