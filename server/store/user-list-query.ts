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
