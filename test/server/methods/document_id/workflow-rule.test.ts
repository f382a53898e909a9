import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VerificationStatus } from '../../../../server/domain/catalogue.js';
import { workflowForDocument, type WorkflowCandidate } from '../../../../server/domain/document-rules.js';
import { findWorkflow, insertTemplate } from '../../../../server/store/repos/templates-repo.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { client, createUser, local, giveConsent } from '../../session/fixtures.js';

const { assigned, processing, complete, rejected, removed, reset } = VerificationStatus;
const ID = ['passport', 'id_card'];
const ADDRESS = ['utility_bill', 'bank_statement'];
const wf = (rawId: number, status: number, documentTypes: string[]): WorkflowCandidate => ({ rawId, status, documentTypes });

describe('workflowForDocument', () => {
  it('fills the first workflow still to do that takes the document type', () => {
    expect(workflowForDocument([wf(1, assigned, ID), wf(2, assigned, ADDRESS)], { documentType: 'utility_bill' })).toBe(2);
    expect(workflowForDocument([wf(2, reset, ADDRESS), wf(1, assigned, ID)], { documentType: 'passport' })).toBe(1);
  });

  it('keeps the workflow a submission was made for, while it is still the user’s', () => {
    expect(workflowForDocument([wf(1, processing, ID), wf(2, assigned, ADDRESS)], { preferred: 1 })).toBe(1);
    expect(workflowForDocument([wf(1, removed, ID), wf(2, assigned, ADDRESS)], { preferred: 1 })).toBe(2);
  });

  it('falls back to the first to do, then the first not done, then the first; never a removed one', () => {
    expect(workflowForDocument([wf(1, processing, ID), wf(2, assigned, ADDRESS)])).toBe(2);
    expect(workflowForDocument([wf(1, complete, ID), wf(2, rejected, ADDRESS)])).toBe(2);
    expect(workflowForDocument([wf(1, complete, ID), wf(2, complete, ADDRESS)])).toBe(1);
    expect(workflowForDocument([wf(1, removed, ID)])).toBeNull();
    expect(workflowForDocument([])).toBeNull();
  });
});

describe('the document workflow rule, from both doors', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ workers: false });
  });
  afterEach(async () => {
    await server.close();
  });

  it('a customer API document job fills the workflow the widget would fill next, not the one already submitted', async () => {
    const db = server.verity.ctx.db;
    const id = (await findWorkflow(db, 'flow_id_document'))!.raw_id;
    const poa = (await findWorkflow(db, 'flow_proof_of_address'))!.raw_id;
    await insertTemplate(db, {
      name: 'tmpl_id_poa',
      label: 'ID and address',
      methodIds: [3],
      workflowRawIds: [id, poa],
      createdAt: server.clock.now().toISOString(),
    });
    const { id: userId, link } = await createUser(server, { email: 'doors@example.com', template_id: 'tmpl_id_poa' });
    const session = client(server);
    await session.start(local(server, link));
    await giveConsent(session);
    const jpeg = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#8899aa' } })
      .jpeg()
      .toBuffer();
    const passport = await session.uploadDocument({ document_type: 'passport', side: 'front', source: 'upload' }, new Blob([new Uint8Array(jpeg)]), 'p.jpg');
    await session.submitDocument({ document_type: 'passport', front_upload_id: passport.upload_id });
    const statuses = async () =>
      Object.fromEntries(
        (await db.selectFrom('user_workflows').select(['workflow_raw_id', 'status']).where('user_id', '=', userId).execute()).map((r) => [
          r.workflow_raw_id,
          r.status,
        ]),
      );
    expect(await statuses()).toEqual({ [id]: processing, [poa]: assigned });

    const form = new FormData();
    form.set('user_id', String(userId));
    form.set('template_id', 'tmpl_id_poa');
    form.set('verify_image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'bill.jpg');
    const res = await fetch(`${server.url}/api/verify/document`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'user-agent': 'tests' },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(await statuses()).toEqual({ [id]: processing, [poa]: processing });
  });
});
