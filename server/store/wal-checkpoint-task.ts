import SQLite from 'better-sqlite3';

/** A checkpoint for the thread of `WalCheckpointer`: the SQLite file whose WAL to copy back. */
export interface WalCheckpointTask {
  file: string;
}

/** SQLite's answer to `wal_checkpoint`: frames in the WAL, and how many of them are in the file now. */
export interface WalCheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

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
    connections.set(task.file, connection);
  }
  return (connection.pragma('wal_checkpoint(PASSIVE)') as WalCheckpointResult[])[0]!;
}
