import type { Executor } from '../store/database.js';
import { methodById, resolveMethod } from '../domain/catalogue.js';
import { eventsOfUser } from '../store/repos/events-repo.js';
import { deliveriesOfUser } from '../store/repos/webhook-deliveries-repo.js';
import { auditOfUser } from './audit-repo.js';

/** One line of a case's timeline: something that happened to the user, when, and by whom. */
export interface TimelineEntry {
  at: string;
  kind: 'event' | 'delivery' | 'decision';
  /** e.g. `verification.completed`, `user.status`, a delivery's event type. */
  what: string;
  /** The method it concerns, by name, when there is one. */
  method: string | null;
  /** Who acted (an admin's e-mail) for decisions; the endpoint URL for deliveries. */
  by: string | null;
  /** A delivery's state and last HTTP status; a decision's reason and move. */
  detail: string | null;
}

const LIMIT = 100;

/**
 * A user's timeline, newest first: the events fired about them (what the customer was told), each
 * webhook delivery of those events with its outcome, and every dashboard decision from the audit
 * log with who and why. At most 100 of each kind are read, then the 100 newest lines kept.
 */
export async function caseTimeline(ex: Executor, userId: number): Promise<TimelineEntry[]> {
  const [events, deliveries, audits] = await Promise.all([
    eventsOfUser(ex, userId, LIMIT),
    deliveriesOfUser(ex, userId, LIMIT),
    auditOfUser(ex, userId, LIMIT),
  ]);
  const lines: TimelineEntry[] = [
    ...events.map((e) => {
      const data = (JSON.parse(e.payload) as { data?: { verification_id?: number | null; user_status?: string; previous_status?: string } }).data ?? {};
      const method = data.verification_id ? (methodById(data.verification_id)?.name ?? null) : null;
      const detail = e.type === 'user.status.changed' ? `${data.previous_status ?? '?'} → ${data.user_status ?? '?'}` : null;
      return { at: e.occurred_at, kind: 'event' as const, what: e.type, method, by: null, detail };
    }),
    ...deliveries.map((d) => ({
      at: d.completed_at ?? d.created_at,
      kind: 'delivery' as const,
      what: d.event_type,
      method: null,
      by: d.endpoint_url,
      detail: `${d.state}, ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${d.last_status === null ? '' : `, HTTP ${d.last_status}`}`,
    })),
    ...audits.map((a) => {
      const details = JSON.parse(a.details) as { method?: string; from?: string; to?: string; reason?: string | null };
      const move = details.from && details.to ? `${details.from} → ${details.to}` : null;
      const detail = [move, details.reason ? `“${details.reason}”` : null].filter(Boolean).join(': ') || null;
      return {
        at: a.created_at,
        kind: 'decision' as const,
        what: a.action,
        method: details.method ? (resolveMethod(details.method)?.name ?? details.method) : null,
        by: a.admin_email,
        detail,
      };
    }),
  ];
  return lines.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, LIMIT);
}
