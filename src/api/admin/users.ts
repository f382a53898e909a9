/**
 * The dashboard's users contract (`/admin/api/users...`): the list, a user, the user page and the
 * verify link. Shared by the server's response schemas and the dashboard's types.
 */
import * as z from 'zod/mini';
import { ConsentRecord } from '../consent.js';
import { dataOf, page } from './common.js';
import { User } from '../user.js';

/** A user as the API shows it: the spec's user (`../user.ts`), which the customer API shows too. */
export const AdminUser = User;
export type AdminUser = User;

export const UsersPage = page(AdminUser);
export const UserAnswer = dataOf(AdminUser);
export type UserAnswer = z.infer<typeof UserAnswer>;
/** `POST /admin/api/users`: the user and the link to send them. */
export const CreatedUser = z.object({ data: AdminUser, magic_link: z.string() });

/** A check of a verification's analysis (`not_run`: not applicable or not reached). */
export const Check = z.object({
  name: z.string(),
  outcome: z.enum(['passed', 'flagged', 'failed', 'not_run']),
  reason: z.nullable(z.string()),
  value: z.nullable(z.number()),
});
export type Check = z.infer<typeof Check>;

const statusOf = z.object({ value: z.int(), key: z.string(), friendly: z.string() });

/** A user's verification on the user page, with the analysis results. */
export const VerificationDetail = z.object({
  method_id: z.int(),
  key: z.string(),
  name: z.string(),
  status: statusOf,
  started_at: z.nullable(z.string()),
  completed_at: z.nullable(z.string()),
  remarks: z.nullable(z.string()),
  /** The analysis as checks (empty until analysed, or for methods without any). */
  checks: z.array(Check),
  results: z.record(z.string(), z.unknown()),
});
export type VerificationDetail = z.infer<typeof VerificationDetail>;

/** A second factor (`two_step`) the user holds. */
const TwoStepEnrolment = z.object({
  key: z.literal('two_step'),
  details: z.object({
    method: z.enum(['totp', 'sms']),
    enabled_at: z.string(),
    phone_ending: z.nullable(z.string()),
    recovery_codes_left: z.nullable(z.int()),
  }),
});
/** The passkeys (`biometric_id`) the user holds. */
const PasskeyEnrolment = z.object({
  key: z.literal('biometric_id'),
  details: z.object({
    rp_id: z.string(),
    passkeys: z.array(
      z.object({ created_at: z.string(), last_used_at: z.nullable(z.string()), device_type: z.string(), backed_up: z.boolean(), aaguid: z.string() }),
    ),
  }),
});
export const Enrolment = z.union([TwoStepEnrolment, PasskeyEnrolment]);
export type Enrolment = z.infer<typeof Enrolment>;
export const EnrolmentsAnswer = dataOf(z.array(Enrolment));

/** `GET /admin/api/users/{id}`: the user page. */
export const UserDetail = z.object({
  user: AdminUser,
  reference_id: z.nullable(z.string()),
  template: z.nullable(z.object({ id: z.int(), name: z.string(), label: z.string() })),
  ip_country: z.nullable(z.string()),
  /** The last consent decision before biometric steps: when, which text version, from which country. */
  consent: z.nullable(ConsentRecord),
  /** What the user enrolled (a second factor, passkeys): kept across resets; an operator may remove it. */
  enrolments: z.array(Enrolment),
  verifications: z.array(VerificationDetail),
  workflows: z.array(z.object({ id: z.string(), status: statusOf, remarks: z.nullable(z.string()), completed_at: z.nullable(z.string()) })),
  images: z.array(
    z.object({
      id: z.string(),
      method: z.string(),
      document_type: z.nullable(z.string()),
      side: z.nullable(z.string()),
      step: z.nullable(z.string()),
      media_type: z.string(),
      size: z.number(),
      created_at: z.string(),
      /** Images only (a signed path); null for a PDF. */
      url: z.nullable(z.string()),
    }),
  ),
  /** Document verification jobs (spec 2.6) with their results and the stored image. */
  document_jobs: z.array(
    z.object({
      doc_id: z.string(),
      status: z.string(),
      reason: z.nullable(z.string()),
      source: z.string(),
      created_at: z.string(),
      completed_at: z.nullable(z.string()),
      document_data: z.unknown(),
      image_url: z.string(),
    }),
  ),
});
export type UserDetail = z.infer<typeof UserDetail>;
export const UserDetailAnswer = dataOf(UserDetail);

/** `POST /admin/api/users/{id}/link`: a verify link (and whether it was sent). */
export const LinkAnswer = z.object({ full_url: z.string(), short_url: z.string(), expires_at: z.string(), sent: z.nullable(z.enum(['email', 'sms'])) });
export type LinkAnswer = z.infer<typeof LinkAnswer>;
