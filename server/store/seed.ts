import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from './database.js';
import { writeSetting } from './repos/settings-repo.js';
import { insertTemplate, insertWorkflow } from './repos/templates-repo.js';

const SEED_MARKER = 'seed_version';

/** A stable encoded id for a workflow: derived from its public id, so it never changes. */
export function encodeWorkflowId(publicId: string): string {
  return 'wf_' + createHash('sha256').update(`workflow:${publicId}`).digest('base64url').slice(0, 16);
}

/**
 * What a fresh install ships: document workflows and sensible templates (email only; ID + selfie;
 * a single document check; selfie only for re-verification). Runs once per database.
 */
export async function seedDefaults(db: Db, clock: Clock): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const marker = await trx.selectFrom('settings').select('value').where('key', '=', SEED_MARKER).executeTakeFirst();
    if (marker) return;
    const createdAt = clock.now().toISOString();
    const workflow = async (publicId: string, name: string, documentTypes: string[]) =>
      insertWorkflow(trx, { publicId, encodedId: encodeWorkflowId(publicId), name, documentTypes, createdAt });
    const idDocument = await workflow('flow_id_document', 'Government ID (passport, ID card or driving licence)', ['passport', 'id_card', 'driving_licence']);
    await workflow('flow_passport', 'Passport', ['passport']);
    await workflow('flow_driving_licence', 'Driving licence (front and back)', ['driving_licence']);
    await workflow('flow_proof_of_address', 'Proof of address', ['utility_bill', 'bank_statement']);

    const template = (name: string, label: string, methodIds: number[], workflowRawIds: number[] = []) =>
      insertTemplate(trx, { name, label, methodIds, workflowRawIds, createdAt });
    await template('tmpl_email', 'Email only', [1]);
    await template('tmpl_id_selfie', 'ID document and selfie', [3, 22], [idDocument]);
    await template('tmpl_document', 'Single document check', [3], [idDocument]);
    await template('tmpl_selfie', 'Selfie only (re-verification)', [22]);
    await template('tmpl_contact', 'Email and phone', [1, 2]);

    await writeSetting(trx, 'default_template', 'tmpl_email');
    await writeSetting(trx, 'reverification_template', 'tmpl_selfie');
    await trx.insertInto('settings').values({ key: SEED_MARKER, value: '1' }).execute();
  });
}
