import SQLite from 'better-sqlite3';

/** A checkpoint for the thread of `WalCheckpointer`: the SQLite file whose WAL to copy back. */
export interface WalCheckpointTask {
  file: string;
  /**
   * TRUNCATE after a deletion: copies every frame back, waits (up to the busy timeout) for readers
   * on older snapshots, then empties the WAL file, so deleted rows' old page images leave it.
   * Default PASSIVE.
   */
  truncate?: boolean;
}

/** SQLite's answer to `wal_checkpoint`: frames in the WAL, and how many of them are in the file now. */
export interface WalCheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** How long a TRUNCATE checkpoint waits for readers and writers before it reports busy. */
export const TRUNCATE_WAIT_MS = 2_000;

/** This thread's connection to each file it checkpoints (a server has one). */
const connections = new Map<string, SQLite.Database>();

/**
 * Copies the WAL's committed frames back into the database file (the `handler` of the checkpoint
 * thread). PASSIVE: it neither waits for nor blocks the server's reads and writes, and copies what
 * no open read still needs; the rest is left for the next one.
 */
export function runWalCheckpoint(task: WalCheckpointTask): WalCheckpointResult {
  let connection = connections.get(task.file);
  if (!connection) {
    connection = new SQLite(task.file, { fileMustExist: true });
    // As the server's connection: the WAL is synced before a checkpoint, the file after it.
    connection.pragma('synchronous = NORMAL');
    // Only TRUNCATE waits (PASSIVE never calls the busy handler): for the server's short
    // transactions to end, not longer.
    connection.pragma(`busy_timeout = ${TRUNCATE_WAIT_MS}`);
    connections.set(task.file, connection);
  }
  return (connection.pragma(`wal_checkpoint(${task.truncate ? 'TRUNCATE' : 'PASSIVE'})`) as WalCheckpointResult[])[0]!;
}
