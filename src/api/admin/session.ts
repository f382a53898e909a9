/** The dashboard's sign-in contract (`/admin/api/session`): sign in, who am I, sign out. */
import * as z from 'zod/mini';

/** The signed-in admin. */
export const AdminIdentity = z.object({ id: z.int(), email: z.string() });
export type AdminIdentity = z.infer<typeof AdminIdentity>;

/** `POST /admin/api/session`: who signed in, until when, and after how long idle the session ends. */
export const SignedIn = z.object({ admin: AdminIdentity, expires_at: z.string(), idle_timeout_seconds: z.number() });
export type SignedIn = z.infer<typeof SignedIn>;

/** `GET /admin/api/session`. */
export const SessionAnswer = z.object({ admin: AdminIdentity });
export type SessionAnswer = z.infer<typeof SessionAnswer>;
