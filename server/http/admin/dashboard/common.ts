import { z } from 'zod';

/** Page parameters of every dashboard list (server-side pagination, nothing loads all at once). */
export const pageQuery = z.object({
  page: z.coerce.number().int().positive().max(1_000_000).optional(),
  per_page: z.coerce.number().int().positive().max(100).optional(),
});

export const DEFAULT_PAGE_SIZE = 20;

/** The `meta` of a paginated dashboard answer. */
export function pageMeta(page: number, perPage: number, total: number) {
  return { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

export const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** `:id` of a row with an INTEGER key (up to 2^31, so larger ids are refused before any query). */
export const rowIdParam = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31),
});
