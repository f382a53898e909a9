import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One message written to the outbox folder instead of being sent. */
export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  /** E-mail address or E.164 phone number. */
  to: string;
  /** E-mail subject (for SMS: the same subject line, for the listing). */
  subject: string;
  text: string;
  locale: string;
  created_at: string;
}

/** The outbox folder of a data dir. */
export function outboxDir(dataDir: string): string {
  return join(dataDir, 'outbox');
}

/**
 * Writes a message as `<created_at>-<seq>-<id>.json` (names sort by time). Written to a temporary name
 * and renamed so a reader never sees half a message; readable by the owner only (it holds links
 * and codes).
 */
export async function writeOutboxMessage(dataDir: string, message: Omit<OutboxMessage, 'id'>): Promise<OutboxMessage> {
  const dir = outboxDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const full: OutboxMessage = { id: randomBytes(8).toString('hex'), ...message };
  // The monotonic counter orders messages written within the same millisecond (or under a test clock).
  const seq = process.hrtime.bigint().toString().padStart(20, '0');
  const name = `${full.created_at.replace(/[:.]/g, '-')}-${seq}-${full.id}.json`;
  const tmp = join(dir, `.${name}.tmp`);
  await writeFile(tmp, JSON.stringify(full, null, 2) + '\n', { mode: 0o600 });
  await rename(tmp, join(dir, name));
  return full;
}

export interface OutboxListOptions {
  /** Only messages to this address / number. */
  to?: string;
  channel?: 'email' | 'sms';
  /** Newest first, at most this many (default 100). */
  limit?: number;
}

/** Messages in the outbox, newest first: for the dashboard's listing and for tests. */
export async function listOutbox(dataDir: string, options: OutboxListOptions = {}): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(outboxDir(dataDir));
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort().reverse();
  const out: OutboxMessage[] = [];
  const limit = options.limit ?? 100;
  for (const name of files) {
    if (out.length >= limit) break;
    const message = JSON.parse(await readFile(join(outboxDir(dataDir), name), 'utf8')) as OutboxMessage;
    if (options.to !== undefined && message.to.toLowerCase() !== options.to.toLowerCase()) continue;
    if (options.channel !== undefined && message.channel !== options.channel) continue;
    out.push(message);
  }
  return out;
}
