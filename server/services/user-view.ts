import { sqlTimestamp } from '../timestamps.js';
import { friendlyStatus, methodById, type UserStatus, type VerificationStatusValue } from '../domain/catalogue.js';
import type { Executor } from '../store/database.js';
import type { UserRow } from '../store/schema.js';
import { findUserForView, verificationsForUsers, type UserViewRow, type VerificationViewRow } from '../store/repos/users-repo.js';

/** A user as the API shows it (spec 2.1). */
export interface UserView {
  id: number;
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  verifications: { id: number; name: string; status: { value: number; friendly: string } }[];
  phone: string | null;
  avatar: string;
  address: string | null;
  country_id: number | null;
  role_id: number;
  status: UserStatus;
  birthday: string | null;
  last_login: string | null;
  two_factor_country_code: number | null;
  two_factor_phone: string | null;
  two_factor_options: Record<string, unknown> | null;
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
}

function sqlTime(iso: string | null): string | null {
  return iso === null ? null : sqlTimestamp(iso);
}

export function toUserView(user: UserViewRow, verifications: readonly VerificationViewRow[], baseUrl: string): UserView {
  return {
    id: user.id,
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    username: user.username,
    email: user.email,
    verifications: verifications
      .filter((v) => v.user_id === user.id)
      .map((v) => ({
        id: v.method_id,
        name: methodById(v.method_id)?.name ?? String(v.method_id),
        status: { value: v.status, friendly: friendlyStatus(v.status as VerificationStatusValue, 'read') },
      })),
    phone: user.phone,
    avatar: user.avatar ?? `${baseUrl}/avatars/${user.uuid}.svg`,
    address: user.address,
    country_id: user.country_id,
    role_id: user.role_id,
    status: user.status as UserStatus,
    birthday: user.birthday,
    last_login: sqlTime(user.last_login),
    two_factor_country_code: user.two_factor_country_code,
    two_factor_phone: user.two_factor_phone,
    two_factor_options: user.two_factor_options ? (JSON.parse(user.two_factor_options) as Record<string, unknown>) : null,
    email_verified_at: sqlTime(user.email_verified_at),
    created_at: sqlTimestamp(user.created_at),
    updated_at: sqlTimestamp(user.updated_at),
  };
}

/** Views for many users with one query for all their verifications. */
export async function userViews(ex: Executor, users: readonly UserRow[], baseUrl: string): Promise<UserView[]> {
  const verifications = await verificationsForUsers(
    ex,
    users.map((u) => u.id),
  );
  return users.map((u) => toUserView(u, verifications, baseUrl));
}

export async function userView(ex: Executor, user: UserRow, baseUrl: string): Promise<UserView> {
  const [view] = await userViews(ex, [user], baseUrl);
  return view!;
}

/** The view of the user with this id, read in one statement; undefined when there is none. */
export async function readUserView(ex: Executor, id: number, baseUrl: string): Promise<UserView | undefined> {
  const found = await findUserForView(ex, id);
  return found && toUserView(found.user, found.verifications, baseUrl);
}
