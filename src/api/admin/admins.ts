/**
 * The dashboard's admins contract: the list, invitations (`/admin/api/admins...`,
 * `/admin/api/invites/accept`) and each admin's own TOTP second factor (`/admin/api/me/totp`).
 */
import * as z from 'zod/mini';
import { page } from './common.js';

/** An admin in the list; `me`: the one asking. */
export const AdminRow = z.object({
  id: z.int(),
  email: z.string(),
  created_at: z.string(),
  totp_enabled_at: z.nullable(z.string()),
  totp: z.boolean(),
  me: z.boolean(),
});
export type AdminRow = z.infer<typeof AdminRow>;
export const AdminsPage = page(AdminRow);

/** `POST /admin/api/admins/invites`: the link to send (shown once) and until when it works. */
export const InviteAnswer = z.object({ url: z.string(), expires_at: z.string() });
export type InviteAnswer = z.infer<typeof InviteAnswer>;

/** `POST /admin/api/invites/accept`: the new admin's e-mail. */
export const InviteAccepted = z.object({ success: z.boolean(), email: z.string() });

/** Whether the asking admin's TOTP second factor is on. */
export const TotpState = z.object({ enabled: z.boolean() });
/** `POST /admin/api/me/totp`: the secret to enter in an authenticator app (and its otpauth URI). */
export const TotpSetup = z.object({ uri: z.string(), secret: z.string() });
export type TotpSetup = z.infer<typeof TotpSetup>;
