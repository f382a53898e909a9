/**
 * Pieces the dashboard's admin contracts share (`src/api/admin/<area>.ts`): zod/mini so the
 * dashboard bundle stays small; the server uses the same schemas as its response schemas.
 */
import * as z from 'zod/mini';

/** The `meta` of a paginated dashboard list (`has_more` only where the total is an estimate). */
export const PageMeta = z.object({
  page: z.int(),
  per_page: z.int(),
  total: z.int(),
  last_page: z.int(),
  has_more: z.optional(z.boolean()),
});
export type PageMeta = z.infer<typeof PageMeta>;

/** One page of a dashboard list: `{ data, meta }`. */
export function page<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: z.array(item), meta: PageMeta });
}
export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

/** The answer of an action with nothing else to say. */
export const Done = z.object({ success: z.boolean() });
export type Done = z.infer<typeof Done>;

/** `{ data: X }`, the envelope of most dashboard answers. */
export function dataOf<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: item });
}

/** Any JSON the server stores as given (analysis results, document data): passed through untouched. */
export const Json = z.unknown();
