import { KnowledgeRequest, MethodResult } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { submitKnowledge } from './use-cases.js';

/** `POST /session/methods/knowledge`. */
export const knowledgeRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/knowledge', { schema: { hide: true, body: KnowledgeRequest, response: { 200: MethodResult } } }, async (req) =>
    submitKnowledge(kit, who(req).user, req.body),
  );
};
