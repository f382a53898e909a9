import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
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
  /** The user the message is for, when it is for one (written since issue 18). */
  user_id?: number;
}

/** The outbox folder of a data dir. */
export function outboxDir(dataDir: string): string {
  return join(dataDir, 'outbox');
}

/**
 * Writes a message as `<created_at>-<seq>-<id>.<channel>.json` (names sort by time, and say the
 * channel, so a listing by channel is counted from the names alone). Written to a temporary name
 * and renamed so a reader never sees half a message; readable by the owner only (it holds links
 * and codes).
 */
export async function writeOutboxMessage(dataDir: string, message: Omit<OutboxMessage, 'id'>): Promise<OutboxMessage> {
  const dir = outboxDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const full: OutboxMessage = { id: randomBytes(8).toString('hex'), ...message };
  // The monotonic counter orders messages written within the same millisecond (or under a test clock).
  const seq = process.hrtime.bigint().toString().padStart(20, '0');
  const name = `${full.created_at.replace(/[:.]/g, '-')}-${seq}-${full.id}.${full.channel}.json`;
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

/** The message files, newest first. */
async function messageFiles(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(outboxDir(dataDir));
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    .sort()
    .reverse();
}

async function readMessage(dataDir: string, name: string): Promise<OutboxMessage> {
  return JSON.parse(await readFile(join(outboxDir(dataDir), name), 'utf8')) as OutboxMessage;
}

/** The channel a file name says, or null for names written before the channel was in the name. */
function channelOfName(name: string): 'email' | 'sms' | null {
  const m = /\.(email|sms)\.json$/.exec(name);
  return m ? (m[1] as 'email' | 'sms') : null;
}

/**
 * One page of the outbox, newest first, and how many messages there are in all (of the channel,
 * when one is given). Counted from the folder listing: only the page's files are read (and, once,
 * older files whose names do not say their channel, when filtering by channel).
 */
export async function outboxPage(
  dataDir: string,
  options: { offset: number; limit: number; channel?: 'email' | 'sms' | undefined },
): Promise<{ data: OutboxMessage[]; total: number }> {
  let files = await messageFiles(dataDir);
  const channel = options.channel;
  if (channel !== undefined) {
    const kept: string[] = [];
    for (const name of files) {
      const named = channelOfName(name);
      if ((named ?? (await readMessage(dataDir, name)).channel) === channel) kept.push(name);
    }
    files = kept;
  }
  const page = files.slice(options.offset, options.offset + options.limit);
  return { data: await Promise.all(page.map((name) => readMessage(dataDir, name))), total: files.length };
}

/** Messages in the outbox, newest first: for tests and tools. */
export async function listOutbox(dataDir: string, options: OutboxListOptions = {}): Promise<OutboxMessage[]> {
  const files = await messageFiles(dataDir);
  const out: OutboxMessage[] = [];
  const limit = options.limit ?? 100;
  for (const name of files) {
    if (out.length >= limit) break;
    if (options.channel !== undefined && channelOfName(name) !== null && channelOfName(name) !== options.channel) continue;
    const message = await readMessage(dataDir, name);
    if (options.to !== undefined && message.to.toLowerCase() !== options.to.toLowerCase()) continue;
    if (options.channel !== undefined && message.channel !== options.channel) continue;
    out.push(message);
  }
  return out;
}

/**
 * Deletes a deleted user's messages (issue 18, point 5): those recorded for the user, and those sent
 * to one of `addresses` (the user's e-mail and phone; older messages do not record the user).
 * Reads every message once: the outbox is the embedded mode's stand-in for a mail server.
 */
export async function deleteOutboxMessagesOf(dataDir: string, userId: number, addresses: (string | null)[]): Promise<number> {
  const to = new Set(addresses.flatMap((a) => (a ? [a.toLowerCase()] : [])));
  let deleted = 0;
  for (const name of await messageFiles(dataDir)) {
    let message: OutboxMessage;
    try {
      message = await readMessage(dataDir, name);
    } catch {
      continue; // deleted meanwhile
    }
    if (message.user_id !== userId && !to.has(message.to.toLowerCase())) continue;
    await unlink(join(outboxDir(dataDir), name)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
    deleted++;
  }
  return deleted;
}
