import type { Executor } from '../store/database.js';
import { sdb } from './tables.js';

/** Per-method progress kept between calls, one JSON document per user and method key. */
export interface MethodStates {
  knowledge: { attempts_used: number };
  geolocation: { attempts_used: number };
  selfie: { challenge: FaceChallengeState | null };
  liveness: { challenge: FaceChallengeState | null };
  /** The flow as a whole: when `POST /session/complete` was called. */
  _flow: { completed_at: string | null };
}

export interface FaceChallengeState {
  id: string;
  steps: string[];
  expires_at: string;
}

export async function readState<K extends keyof MethodStates>(ex: Executor, userId: number, key: K): Promise<MethodStates[K] | undefined> {
  const row = await sdb(ex).selectFrom('method_state').select('data').where('user_id', '=', userId).where('method_key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.data) as MethodStates[K]) : undefined;
}

export async function writeState<K extends keyof MethodStates>(ex: Executor, userId: number, key: K, data: MethodStates[K], now: Date): Promise<void> {
  const json = JSON.stringify(data);
  await sdb(ex)
    .insertInto('method_state')
    .values({ user_id: userId, method_key: key, data: json, updated_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['user_id', 'method_key']).doUpdateSet({ data: json, updated_at: now.toISOString() }))
    .execute();
}

export async function clearState(ex: Executor, userId: number, key: keyof MethodStates): Promise<void> {
  await sdb(ex).deleteFrom('method_state').where('user_id', '=', userId).where('method_key', '=', key).execute();
}
