import { DOCUMENT_MEDIA_TYPES, MAX_UPLOAD_BYTES } from '../../../src/api/contract.js';
import { DOCUMENT_METHOD_ID, VerificationStatus } from '../../domain/catalogue.js';
import { moveDocumentWorkflow } from '../../services/verifications.js';
import { isOpen } from '../../session/status.js';
import { uploadsOf } from '../../session/uploads-repo.js';
import { workflowsForUser } from '../../store/repos/users-repo.js';
import { alwaysRetry, reopenVerification } from '../defaults.js';
import type { ServerMethod } from '../method.js';
import { documentRoutes } from './routes.js';
import { documentTypesFor } from './use-cases.js';

/** Document / ID (spec method 3): photos of the document's sides, analysed on the server, per document workflow. */
export const documentMethod: ServerMethod = {
  key: 'document_id',
  methodIds: [DOCUMENT_METHOD_ID],
  permissions: ['camera'],
  biometric: true,
  routes: documentRoutes,
  async view({ ctx, user }, base) {
    const newest = new Map<string, { upload_id: string; document_type: string; side: 'front' | 'back' }>();
    for (const u of await uploadsOf(ctx.db, user.id, 'document_id')) {
      const side = u.side === 'back' ? 'back' : 'front';
      const k = `${u.document_type}:${side}`;
      if (!newest.has(k)) newest.set(k, { upload_id: u.id, document_type: u.document_type ?? '', side });
    }
    return {
      ...base,
      key: 'document_id',
      needs: {
        document_types: await documentTypesFor(ctx.db, user.id),
        accepted_media_types: [...DOCUMENT_MEDIA_TYPES],
        max_bytes: MAX_UPLOAD_BYTES - 1,
        uploads: [...newest.values()],
      },
    };
  },
  canRetryRejected: alwaysRetry,
  // The rejected workflows go back to `assigned` (and the method with them); without workflows, the method itself.
  async reopen(trx, ctx, userId, verification) {
    const rejected = (await workflowsForUser(trx, userId)).filter((w) => w.status === VerificationStatus.rejected);
    for (const w of rejected) await moveDocumentWorkflow(trx, ctx.clock, userId, w.workflow_raw_id, VerificationStatus.assigned, null);
    if (rejected.length === 0) await reopenVerification(trx, ctx, userId, verification);
  },
  /**
   * A Document / ID that is `processing` for one workflow while another of the user's workflows
   * (say, proof of address) still waits for its document is still to do for the user, so it reads
   * `assigned` in the flow (the customer API keeps showing `processing`).
   */
  async flowStatus(ex, userId, verification) {
    if (verification.status !== VerificationStatus.processing) return verification.status;
    const workflows = await workflowsForUser(ex, userId);
    return workflows.some((w) => isOpen(w.status)) ? VerificationStatus.assigned : verification.status;
  },
};
