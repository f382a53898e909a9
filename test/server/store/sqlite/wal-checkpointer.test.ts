import { closeSync, copyFileSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database, { type Database as SqliteConnection } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_AUTOCHECKPOINT_PAGES, WalCheckpointer, type WalCheckpointerOptions } from '../../../../server/store/sqlite/wal-checkpointer.js';

/**
 * The embedded server copies its WAL back into the database file in a thread of its own, rather
 * than in the commits of requests: the data must reach the file all the same, the WAL must stay
 * bounded under a stream of commits, and an idle server must not keep a thread busy.
 */
let dir: string;
let file: string;
const closing: (() => unknown)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verity-wal-checkpointer-'));
  file = join(dir, 'db.sqlite');
});
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  await rm(dir, { recursive: true, force: true });
});

const PAGE = 4096;
/** The WAL size the thread starts at in these tests: above 10 commits of a row (two pages each), below 100. */
const START = 256 * 1024;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function connect(): SqliteConnection {
  const connection = new Database(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.exec('create table rows (id integer primary key, body blob not null)');
  closing.push(() => connection.close());
  return connection;
}

function checkpointerOf(connection: SqliteConnection, options: WalCheckpointerOptions): WalCheckpointer {
  const checkpointer = WalCheckpointer.forConnection(connection, options)!;
  closing.push(() => checkpointer.close());
  return checkpointer;
}

/** Commits `count` rows of about a page each. */
function writeRows(connection: SqliteConnection, count: number): void {
  const insert = connection.prepare('insert into rows (body) values (?)');
  for (let i = 0; i < count; i++) insert.run(Buffer.alloc(PAGE - 200, i % 251));
}

/** Waits for `condition`; the deadline only stops a hang (a loaded CI machine starts threads slowly). */
async function until(condition: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await pause(10);
  }
}

/** The WAL header's first salt, which SQLite changes each time it restarts the WAL from its beginning. */
function walSalt(): number {
  const fd = openSync(`${file}-wal`, 'r');
  try {
    const header = Buffer.alloc(32);
    readSync(fd, header, 0, 32, 0);
    return header.readUInt32BE(16);
  } finally {
    closeSync(fd);
  }
}

/**
 * The rows in the database file alone, without its WAL: what has been checkpointed. Undefined when
 * the copy caught a checkpoint half-way through its writes.
 */
function rowsInFileAlone(): number | undefined {
  const copy = join(dir, 'copy.sqlite');
  copyFileSync(file, copy);
  const reader = new Database(copy, { readonly: true });
  try {
    const table = reader.prepare("select 1 from sqlite_master where name = 'rows'").get();
    return table ? (reader.prepare('select count(*) as n from rows').get() as { n: number }).n : 0;
  } catch (err) {
    if (err instanceof Error && /malformed/.test(err.message)) return undefined;
    throw err;
  } finally {
    reader.close();
  }
}

describe('WalCheckpointer', { timeout: 180_000 }, () => {
  it('copies the WAL into the database file from its thread once the WAL has grown', async () => {
    const connection = connect();
    // A backstop the test never reaches: whatever reaches the file, the thread put there.
    const checkpointer = checkpointerOf(connection, { startAtBytes: START, backstopPages: 1_000_000 });
    writeRows(connection, 10);
    await pause(300);
    // Below the start size nothing runs, and SQLite's own threshold (1,000 pages) is far off.
    expect(checkpointer.running).toBe(false);
    expect(rowsInFileAlone()).toBe(0);

    writeRows(connection, 90);
    await until(() => checkpointer.running && rowsInFileAlone() === 100);
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000_000);
  });

  it('keeps the WAL bounded under a stream of commits', async () => {
    const connection = connect();
    const checkpointer = checkpointerOf(connection, { startAtBytes: START, backstopPages: 200 });
    writeRows(connection, 100);
    await until(() => checkpointer.running);
    const salts = new Set<number>();
    let largest = 0;
    // 6,000 rows (about 18,000 WAL frames) in small commits with the thread at work in between.
    // Past the backstop the connection checkpoints after a commit unless the thread's checkpoint
    // is under way, when the WAL grows by what is committed meanwhile: the commits of this loop
    // come far faster than a server's. Left to nobody, the WAL would hold them all.
    for (let round = 0; round < 300; round++) {
      writeRows(connection, 20);
      salts.add(walSalt());
      largest = Math.max(largest, statSync(`${file}-wal`).size);
      await new Promise((r) => setImmediate(r));
      // Every tenth round waits for the thread's next checkpoint: without it, how far the loop
      // outran the thread depended on the machine's load (a loaded CI run saw 48 MB), not on the
      // checkpointer. Ten rounds (about 600 frames) between checkpoints still outrun a server.
      if (round % 10 === 9) {
        const seen = checkpointer.checkpoints;
        await until(() => checkpointer.checkpoints > seen);
      }
    }
    expect(checkpointer.running).toBe(true);
    // Bounded, not small: unchecked, the WAL would hold all ~18,000 frames (about 74 MB).
    expect(largest).toBeLessThan(3_000 * PAGE);
    // Each restart from the WAL's beginning gives it a new salt.
    expect(salts.size).toBeGreaterThan(10);
    await checkpointer.close();
    expect(rowsInFileAlone()).toBeGreaterThan(5_000);
  });

  it('stops checkpointing while nothing is written', async () => {
    const connection = connect();
    const checkpointer = checkpointerOf(connection, { startAtBytes: START });
    writeRows(connection, 100);
    await until(() => rowsInFileAlone() === 100);
    await pause(300);
    const before = checkpointer.checkpoints;
    await pause(500);
    // At most the 100 ms look at an idle WAL, not one checkpoint after another.
    expect(checkpointer.checkpoints - before).toBeLessThanOrEqual(6);
  });

  it('gives the checkpoints back to the connection when closed', async () => {
    const connection = connect();
    const checkpointer = checkpointerOf(connection, { startAtBytes: START, backstopPages: 5_000 });
    writeRows(connection, 100);
    await until(() => checkpointer.running);
    await checkpointer.close();
    expect(checkpointer.running).toBe(false);
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
    const after = checkpointer.checkpoints;
    writeRows(connection, 100);
    await pause(300);
    expect(checkpointer.checkpoints).toBe(after);
  });

  it('logs and leaves the checkpoints to the connection when the thread fails', async () => {
    const connection = connect();
    const errors: string[] = [];
    const checkpointer = checkpointerOf(connection, { startAtBytes: START, backstopPages: 5_000, log: { error: (_obj, msg) => errors.push(msg) } });
    // The thread opens the file by name, and finds none there.
    renameSync(file, `${file}.moved`);
    closing.push(() => renameSync(`${file}.moved`, file));
    writeRows(connection, 100);
    await until(() => errors.length > 0);
    expect(errors[0]).toMatch(/checkpoint thread failed/);
    expect(checkpointer.running).toBe(false);
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
  });

  it('truncate() empties the WAL, even while the WAL is below the size that starts the thread', async () => {
    const connection = connect();
    const checkpointer = checkpointerOf(connection, { startAtBytes: 64 * 1024 * 1024 });
    writeRows(connection, 20);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    await checkpointer.truncate();
    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(connection.prepare('select count(*) as n from rows').get()).toEqual({ n: 20 });
  });

  it('truncate() waits for a reader on an older snapshot to finish instead of leaving old frames', async () => {
    const connection = connect();
    const checkpointer = checkpointerOf(connection, { startAtBytes: 64 * 1024 * 1024 });
    writeRows(connection, 5);
    const reader = new Database(file, { readonly: true });
    closing.push(() => reader.close());
    reader.exec('begin');
    reader.prepare('select count(*) from rows').get();
    writeRows(connection, 5);
    const truncated = checkpointer.truncate();
    await pause(300);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    reader.exec('commit');
    await truncated;
    expect(statSync(`${file}-wal`).size).toBe(0);
  });
});
