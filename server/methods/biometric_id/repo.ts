import type { Executor } from '../../store/database.js';
import { pdb, type PasskeyCredentialTable } from './tables.js';

/** The user's passkeys made for `rpId` (a passkey of another host cannot sign for this one). */
export async function findCredentials(ex: Executor, userId: number, rpId: string): Promise<PasskeyCredentialTable[]> {
  return pdb(ex).selectFrom('passkey_credentials').selectAll().where('user_id', '=', userId).where('rp_id', '=', rpId).orderBy('created_at').execute();
}

/** One of the user's passkeys by its id (another user's passkey is not found). */
export async function findCredential(ex: Executor, userId: number, credentialId: string): Promise<PasskeyCredentialTable | undefined> {
  return pdb(ex).selectFrom('passkey_credentials').selectAll().where('user_id', '=', userId).where('credential_id', '=', credentialId).executeTakeFirst();
}

export async function saveCredential(ex: Executor, row: PasskeyCredentialTable): Promise<void> {
  await pdb(ex).insertInto('passkey_credentials').values(row).execute();
}

/**
 * Moves the counter from what the assertion was checked against to the new value, only if no other
 * assertion moved it meanwhile (two copies of one assertion sent at once pass once).
 */
export async function advanceCounter(ex: Executor, credentialId: string, from: number, to: number, now: Date): Promise<boolean> {
  const r = await pdb(ex)
    .updateTable('passkey_credentials')
    .set({ counter: to, last_used_at: now.toISOString() })
    .where('credential_id', '=', credentialId)
    .where('counter', '=', from)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Deletes a user's passkeys (user deletion, an operator's removal); false when there were none. */
export async function deletePasskeyData(ex: Executor, userId: number): Promise<boolean> {
  const r = await pdb(ex).deleteFrom('passkey_credentials').where('user_id', '=', userId).executeTakeFirst();
  return r.numDeletedRows > 0n;
}
