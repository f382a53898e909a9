import { DocumentSubmitRequest, DocumentUploadFields, DocumentUploadResponse, MethodResult } from '../../../src/api/contract.js';
import { who } from '../../http/session/request.js';
import type { MethodRoutes } from '../method.js';
import { parseFields, readMultipart } from '../uploads.js';
import { submitDocument, uploadDocument } from './use-cases.js';

const hide = { hide: true };

/** `POST /session/methods/document_id/uploads` (one side, multipart) and `…/submit`. */
export const documentRoutes: MethodRoutes = (kit) => async (app) => {
  app.post('/session/methods/document_id/uploads', { schema: { ...hide, response: { 201: DocumentUploadResponse } } }, async (req, reply) => {
    await kit.limits.upload(who(req).user.id);
    const { fields, file } = await readMultipart(req, 'image');
    const result = await uploadDocument(kit, who(req).user, parseFields(DocumentUploadFields, fields), file);
    return reply.code(201).send(result);
  });
  app.post('/session/methods/document_id/submit', { schema: { ...hide, body: DocumentSubmitRequest, response: { 200: MethodResult } } }, async (req) =>
    submitDocument(kit, who(req).user, req.body),
  );
};
