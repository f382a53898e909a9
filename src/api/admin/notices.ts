/** The dashboard's notices contract (`/admin/api/notices`): what went wrong that an admin should see. */
import * as z from 'zod/mini';
import { dataOf } from './common.js';

export const AdminNotice = z.object({
  id: z.int(),
  /** What happened, e.g. `webhook_endpoint_disabled`, `webhook_deliveries_lost`. */
  kind: z.string(),
  message: z.string(),
  details: z.unknown(),
  created_at: z.string(),
  read_at: z.nullable(z.string()),
});
export type AdminNotice = z.infer<typeof AdminNotice>;
export const NoticesAnswer = dataOf(z.array(AdminNotice));
