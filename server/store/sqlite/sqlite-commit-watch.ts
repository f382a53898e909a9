import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Database as SqliteConnection, Statement } from 'better-sqlite3';

/** How often SQLite is asked at most while a commit by another connection may be pending. */
const ASK_EVERY_MS = 1;
/**
 * How long after the WAL was last written SQLite keeps being asked, and after which it is asked
 * once more. A writer appends its frames to the WAL (which the file system reports), syncs them,
 * and only then publishes the commit in the shared-memory index (which it does not report), so
 * the notice can come before the commit is visible; a second covers any sane disk's sync.
 */
const ASK_FOR_MS = 1_000;

/**
 * Tells whether another connection (another process, such as the CLI on the same data dir) has
 * committed to this SQLite database since the last call. SQLite's `pragma data_version` answers
 * that, but asking takes a read transaction: two `fcntl` lock calls, as much as the read it guards
 * on the API's hottest path. So it is asked only while there can be news: after the file system
 * reports a write to the WAL (inotify on Linux), at most once a millisecond for a second, and
 * once more after that second, whenever the next call comes. Where the WAL cannot be watched it
 * is asked at most once a millisecond, always.
 */
export class SqliteCommitWatch {
  readonly #dataVersion: Statement;
  #watcher: FSWatcher | undefined;
  #seen: number;
  #askedAt = 0;
  /** Until when (ms since the epoch) SQLite is asked at every call; infinite without a watcher. */
  #askUntil = Number.POSITIVE_INFINITY;
  /** Whether SQLite is still to be asked once after `#askUntil`. */
  #askOnceMore = false;

  constructor(connection: SqliteConnection) {
    this.#dataVersion = connection.prepare('pragma data_version').pluck();
    this.#seen = this.#dataVersion.get() as number;
    if (connection.memory) {
      // No other connection can reach an in-memory database.
      this.#askUntil = 0;
      return;
    }
    this.#watcher = watchWal(connection.name, () => {
      this.#askUntil = Date.now() + ASK_FOR_MS;
      this.#askOnceMore = true;
    });
    if (this.#watcher) {
      this.#askUntil = 0;
      this.#watcher.on('error', () => {
        this.#watcher?.close();
        this.#watcher = undefined;
        this.#askUntil = Number.POSITIVE_INFINITY;
      });
    }
  }

  /** True when another connection committed since the last call that returned true (or since the start). */
  otherCommitted(now = Date.now()): boolean {
    if (now > this.#askUntil) {
      if (!this.#askOnceMore) return false;
      this.#askOnceMore = false;
    } else if (now - this.#askedAt < ASK_EVERY_MS) {
      return false;
    }
    this.#askedAt = now;
    const version = this.#dataVersion.get() as number;
    if (version === this.#seen) return false;
    this.#seen = version;
    return true;
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
  }
}

/**
 * Calls `onWrite` whenever the WAL of the database file `file` is written, created or removed.
 * Watches the folder rather than the WAL itself, which SQLite may delete and create again.
 * Undefined when the file system cannot watch it (no inotify watches left, say).
 */
function watchWal(file: string, onWrite: () => void): FSWatcher | undefined {
  const wal = `${basename(file)}-wal`;
  try {
    return watch(dirname(file), { persistent: false }, (_event, name) => {
      // Some platforms give no name; then any change in the folder counts.
      if (name === null || name === wal) onWrite();
    });
  } catch {
    return undefined;
  }
}
