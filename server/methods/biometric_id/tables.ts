import { withOwnTables } from '../../store/database.js';

/** The Biometric ID tables (migration `0020-passkeys`). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type PasskeyTables = {
  passkey_credentials: PasskeyCredentialTable;
};

/** One registered passkey: its public key only, and what its attestation said. */
export interface PasskeyCredentialTable {
  /** The credential id, base64url. */
  credential_id: string;
  user_id: number;
  /** The relying-party id it was created for (the public URL's host at the time). */
  rp_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter after the last accepted ceremony (0: it keeps none). */
  counter: number;
  /** JSON array of the transports the browser reported (`internal`, `hybrid`, …). */
  transports: string;
  aaguid: string;
  /** The attestation statement's format (`packed`, `tpm`, `apple`, `none`, …). */
  attestation_format: string;
  /** `singleDevice` or `multiDevice` (a synced passkey). */
  device_type: string;
  backed_up: number;
  created_at: string;
  last_used_at: string | null;
}

/** The same connection or transaction, typed with the passkey table as well. */
export const pdb = withOwnTables<PasskeyTables>();
