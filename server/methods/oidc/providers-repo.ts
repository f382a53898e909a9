import { SEAL_LABELS, sealerFor } from '../../crypto/seal.js';
import type { Executor } from '../../store/database.js';
import { odb, type OidcPurpose, type OidcProviderTable } from './tables.js';

/** A provider as the server uses it: the client secret opened. Never sent to a browser. */
export interface OidcProvider {
  id: number;
  purpose: OidcPurpose;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  updatedAt: string;
}

/** A provider as the dashboard lists it: no secret. */
export interface OidcProviderListing {
  id: number;
  purpose: OidcPurpose;
  name: string;
  issuer: string;
  client_id: string;
  scopes: string;
  updated_at: string;
}

/** A new provider's fields (the secret in clear; it is sealed here). */
export type NewOidcProvider = Omit<OidcProvider, 'id' | 'updatedAt'>;

type Row = Omit<OidcProviderTable, 'id'> & { id: number };

function listing(row: Row): OidcProviderListing {
  return { id: row.id, purpose: row.purpose, name: row.name, issuer: row.issuer, client_id: row.client_id, scopes: row.scopes, updated_at: row.updated_at };
}

/** Every configured provider, oldest first, without secrets. */
export async function listProviders(ex: Executor, purpose?: OidcPurpose): Promise<OidcProviderListing[]> {
  let q = odb(ex).selectFrom('oidc_providers').selectAll().orderBy('id');
  if (purpose) q = q.where('purpose', '=', purpose);
  return (await q.execute()).map(listing);
}

/** One provider with its secret opened; undefined when there is none with that id (and purpose). */
export async function findProvider(ex: Executor, serverSecret: string, id: number, purpose?: OidcPurpose): Promise<OidcProvider | undefined> {
  let q = odb(ex).selectFrom('oidc_providers').selectAll().where('id', '=', id);
  if (purpose) q = q.where('purpose', '=', purpose);
  const row = await q.executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    purpose: row.purpose,
    name: row.name,
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecret: sealerFor(serverSecret, SEAL_LABELS.oidcClientSecret).open(row.client_secret_sealed),
    scopes: row.scopes,
    updatedAt: row.updated_at,
  };
}

/** Stores a provider, its client secret sealed under its own label. */
export async function insertProvider(ex: Executor, serverSecret: string, p: NewOidcProvider, now: Date): Promise<OidcProviderListing> {
  const at = now.toISOString();
  const row = await odb(ex)
    .insertInto('oidc_providers')
    .values({
      purpose: p.purpose,
      name: p.name,
      issuer: p.issuer,
      client_id: p.clientId,
      client_secret_sealed: sealerFor(serverSecret, SEAL_LABELS.oidcClientSecret).seal(p.clientSecret),
      scopes: p.scopes,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return listing(row);
}

/** Removes a provider and the sign-ins in flight with it. False when there was none. */
export async function deleteProvider(ex: Executor, id: number): Promise<boolean> {
  const t = odb(ex);
  await t.deleteFrom('oidc_logins').where('provider_id', '=', id).execute();
  const res = await t.deleteFrom('oidc_providers').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
