import { withOwnTables } from '../../store/database.js';

/** The Live Video table (migration `0026-live-video`). */
// A type alias (not an interface) so it satisfies kysely's `withTables` index-signature constraint.
export type LiveVideoTables = {
  live_video_calls: LiveVideoCallTable;
};

/** A user waiting for an agent (`waiting`) or in a call with one (`in_call`). Gone when neither. */
export interface LiveVideoCallTable {
  user_id: number;
  state: 'waiting' | 'in_call';
  /** The user's socket (random id): signalling for the user goes to the process holding it. */
  user_conn: string;
  /** The agent's socket, in a call. */
  agent_conn: string | null;
  agent_admin_id: number | null;
  /** When the user entered the queue: the queue's order. */
  queued_at: string;
  call_started_at: string | null;
  /** When the call's length limit ends it (migration `0032`): any process may end it then. */
  call_ends_at: string | null;
  /** Last sign of life of the user's socket: a row whose process died stops counting after a while. */
  seen_at: string;
}

/** The same connection or transaction, typed with the Live Video table as well. */
export const ldb = withOwnTables<LiveVideoTables>();
