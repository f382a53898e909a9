import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database, { type Database as SqliteConnection } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteCommitWatch } from '../../../../server/store/sqlite/sqlite-commit-watch.js';

let dir: string;
const opened: { close(): unknown }[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verity-commit-watch-'));
});
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) o.close();
  await rm(dir, { recursive: true, force: true });
});

function connect(): SqliteConnection {
  const connection = new Database(join(dir, 'db.sqlite'));
  connection.pragma('journal_mode = WAL');
  opened.push(connection);
  return connection;
}

function watchOf(connection: SqliteConnection): SqliteCommitWatch {
  const watch = new SqliteCommitWatch(connection);
  opened.push(watch);
  return watch;
}

/** The server's connection, with a table to write to, and its watch. */
function watchedServer(): { server: SqliteConnection; watch: SqliteCommitWatch } {
  const server = connect();
  server.exec('create table t (x integer)');
  return { server, watch: watchOf(server) };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks the watch until it says yes, for up to `ms`; the file system's notice arrives asynchronously. */
async function seenWithin(watch: SqliteCommitWatch, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (watch.otherCommitted()) return true;
    if (Date.now() > deadline) return false;
    await pause(2);
  }
}

describe('SqliteCommitWatch', () => {
  it("reports another connection's commit, once", async () => {
    const { watch } = watchedServer();
    const cli = connect();
    cli.prepare('insert into t values (1)').run();
    expect(await seenWithin(watch, 5_000)).toBe(true);
    await pause(20);
    expect(watch.otherCommitted()).toBe(false);
    // A second commit is news again.
    cli.prepare('insert into t values (2)').run();
    expect(await seenWithin(watch, 5_000)).toBe(true);
  });

  it("does not report the watched connection's own commits", async () => {
    const { server, watch } = watchedServer();
    connect();
    server.prepare('insert into t values (1)').run();
    expect(await seenWithin(watch, 200)).toBe(false);
  });

  it('reports a commit made while the last notice was being handled (the writer publishes after writing the WAL)', async () => {
    const { watch } = watchedServer();
    const cli = connect();
    cli.prepare('insert into t values (1)').run();
    expect(await seenWithin(watch, 5_000)).toBe(true);
    // Within the window after a notice, a commit is seen even before its own notice is handled.
    cli.prepare('insert into t values (2)').run();
    await pause(2);
    expect(watch.otherCommitted()).toBe(true);
  });

  it('reports a commit that nothing asked about until long after its notice', async () => {
    const { watch } = watchedServer();
    connect().prepare('insert into t values (1)').run();
    // Past the second in which every call asks: the next call still asks, once.
    await pause(1_200);
    expect(watch.otherCommitted()).toBe(true);
    expect(watch.otherCommitted(Date.now() + 10)).toBe(false);
  });

  it('never reports anything on an in-memory database', () => {
    const memory = new Database(':memory:');
    opened.push(memory);
    expect(watchOf(memory).otherCommitted()).toBe(false);
  });
});
