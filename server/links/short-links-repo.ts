import type { Executor } from '../store/database.js';
import { openShortLinkUrl, sealShortLinkUrl } from './sealed-url.js';

export interface NewShortLink {
  code: string;
  userId: number;
  url: string;
  expiresAt: string;
  createdAt: string;
}

/** Saves a short link, its target sealed. */
export async function insertShortLink(ex: Executor, secret: string, link: NewShortLink): Promise<void> {
  await ex
    .insertInto('short_links')
    .values({ code: link.code, user_id: link.userId, sealed_url: sealShortLinkUrl(secret, link.url), expires_at: link.expiresAt, created_at: link.createdAt })
    .execute();
}

/** A short link's target and expiry; `url` is null when its sealed target cannot be opened. */
export async function findShortLink(ex: Executor, secret: string, code: string): Promise<{ url: string | null; expiresAt: string } | undefined> {
  const row = await ex.selectFrom('short_links').select(['sealed_url', 'expires_at']).where('code', '=', code).executeTakeFirst();
  return row ? { url: openShortLinkUrl(secret, row.sealed_url), expiresAt: row.expires_at } : undefined;
}

/** Deletes short links by code (a user's, so a code cannot reach another user's link). */
export async function deleteShortLinks(ex: Executor, userId: number, codes: readonly string[]): Promise<void> {
  if (codes.length) await ex.deleteFrom('short_links').where('user_id', '=', userId).where('code', 'in', codes).execute();
}

export async function deleteShortLink(ex: Executor, code: string): Promise<void> {
  await ex.deleteFrom('short_links').where('code', '=', code).execute();
}
