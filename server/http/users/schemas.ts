import { z } from 'zod';
import { SORTABLE_USER_FIELDS } from '../../store/repos/users-repo.js';
import { booleanish, e164Phone, email, httpUrl, jsonString, templateName, userSchema } from '../schemas.js';

const text = (max = 255) => z.string().trim().max(max);

export const createUserBody = z.object({
  email,
  notice: text(2000).optional(),
  send_link: booleanish.optional(),
  send_sms: booleanish.optional(),
  template_id: templateName.optional(),
  reference_id: text().min(1).optional(),
  phone: e164Phone.optional(),
  first_name: text().optional(),
  last_name: text().optional(),
  username: text().min(1).optional(),
  custom_verify_data: jsonString
    .describe(
      'JSON object of requirement sections. `knowledge`: `{ questions: [{ id?, prompt, kind?: text|date|number, answer, ask_as?: text|choice, distractors? }], pass_threshold?, max_attempts? }`, facts only this user can answer; answers are stored only as keyed hashes. `document`: `{ document_types?: (passport|id_card|driving_licence)[], issuing_countries?: alpha-3[], issuing_states?: US/CA codes[], minimum_age?, name_match?: full_name|last_name, date_of_birth?: YYYY-MM-DD, expiry_margin_days?, on_failure?: review|reject }`, requirements of the document decision, each a `required_*` check of the Document / ID result (docs/api.md).',
    )
    .optional(),
  order_id: text().optional(),
  completion_url: httpUrl.optional(),
  redirect_url: httpUrl.optional(),
  deaNumber: text(64).optional(),
});

export const createUserResponse = z.object({
  status: z.literal('success'),
  id: z.number().int(),
  magic_link: z.string(),
});

export const updateUserBody = z
  .object({
    email: email.optional(),
    username: text().min(1).optional(),
    first_name: text().optional(),
    last_name: text().optional(),
    status: z.string().optional(),
    phone: e164Phone.nullable().optional(),
    reference_id: text().min(1).optional(),
    template_id: templateName.optional(),
    custom_verify_data: jsonString.describe('As on create: JSON object of requirement sections (`knowledge`, `document`; docs/api.md).').optional(),
    order_id: text().optional(),
  })
  .nullish();

export const userIdParams = z.object({ id: z.string() });

const sortValues = SORTABLE_USER_FIELDS.flatMap((f) => [f, `-${f}`] as const);

/** Query text with no control characters (a NUL cannot be matched, and stored text holds none). */
const filterText = (max: number) =>
  z
    .string()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'The filter may not contain control characters.');

export const listUsersQuery = z.object({
  // Any larger whole number is capped at 100 (spec 8), however large: an integer check would
  // refuse those beyond 2^53.
  per_page: z.coerce
    .number()
    .min(1)
    .refine((n) => Number.isInteger(n), 'The per page must be an integer.')
    .optional(),
  page: z.coerce.number().int().min(1).optional(),
  'filter[search]': filterText(255).optional(),
  'filter[email]': filterText(254).optional(),
  'filter[status]': filterText(32).optional(),
  sort: z.enum(sortValues as [string, ...string[]]).optional(),
});

export const listUsersResponse = z.object({
  data: z.array(userSchema),
  links: z.object({
    first: z.string(),
    last: z.string(),
    prev: z.string().nullable(),
    next: z.string().nullable(),
  }),
  meta: z.object({
    current_page: z.number().int(),
    from: z.number().int().nullable(),
    last_page: z.number().int(),
    path: z.string(),
    per_page: z.number().int(),
    to: z.number().int().nullable(),
    total: z.number().int(),
  }),
});

export const verifyUrlBody = z
  .object({
    // A number, or digits in a string (form bodies have only strings); not `true`, which would
    // coerce to 1.
    expiration_hours: z
      .union([z.number(), z.string().regex(/^\s*\d+\s*$/, 'The expiration hours must be an integer.')])
      .pipe(
        z.coerce
          .number<string | number>()
          .int()
          .min(1)
          .max(24 * 365),
      )
      .nullish(),
  })
  .nullish();

export const verifyUrlResponse = z.object({ short_url: z.string(), full_url: z.string() });
