/** What a list of users may be filtered and sorted by (spec 4.1, 4.17). */
export const SORTABLE_USER_FIELDS = ['id', 'first_name', 'last_name', 'email', 'created_at', 'updated_at'] as const;
export type UserSortField = (typeof SORTABLE_USER_FIELDS)[number];

export interface UserListQuery {
  search?: string | undefined;
  email?: string | undefined;
  status?: string | undefined;
  sort: UserSortField;
  descending: boolean;
  page: number;
  perPage: number;
}

/** Text fields sort without regard to letter case ('aaron' before 'Zoë'), as a person reads a list. */
const CASE_FOLDED_SORTS: ReadonlySet<UserSortField> = new Set(['first_name', 'last_name', 'email']);

/**
 * The SQL expression a list sorts by: `lower(column)` for text, the column itself otherwise.
 * Migration 0013 indexes each one (with the id, the tiebreaker), so pages are read in index order.
 */
export function sortExpression(field: UserSortField): string {
  if (!SORTABLE_USER_FIELDS.includes(field)) throw new Error(`not a sortable user field: ${String(field)}`);
  return CASE_FOLDED_SORTS.has(field) ? `lower(${field})` : field;
}
