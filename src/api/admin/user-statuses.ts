/** User statuses (spec 3.1). Free of zod, so the dashboard can use the list without the schemas. */
export const USER_STATUSES = ['Unconfirmed', 'Active', 'Verified', 'Banned', 'Review'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
