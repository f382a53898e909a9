import { CompiledQuery, createQueryId, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStatistics } from '../../../server/store/repos/stats-repo.js';
import type { Db } from '../../../server/store/database.js';
import { listUsers, SORTABLE_USER_FIELDS } from '../../../server/store/repos/users-repo.js';
import { openScratchSqlite, type ScratchSqlite } from '../../helpers/scratch-sqlite.js';

let scratch: ScratchSqlite;
beforeAll(async () => {
  scratch = await openScratchSqlite('list-plans');
});
afterAll(async () => {
  await scratch.close();
});

/** How SQLite runs each statement `send` sends through the database it is given, as `explain query plan` lines. */
async function plansOf(send: (db: Db) => Promise<unknown>): Promise<string[]> {
  // Plugins also see the subqueries a statement is built from; only what ran gets a result.
  const nodes = new Map<string, RootOperationNode>();
  const sent: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      nodes.set(queryId.queryId, node);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      sent.push(nodes.get(queryId.queryId)!);
      return result;
    },
  };
  await send(scratch.db.withPlugin(recorder));
  const out: string[] = [];
  for (const node of sent) {
    const compiled = scratch.db.getExecutor().compileQuery(node, createQueryId());
    const { rows } = await scratch.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    out.push(rows.map((r) => r.detail).join('\n'));
  }
  return out;
}

/** The plans of the statements `listUsers` sends (no search). */
function plans(sort: (typeof SORTABLE_USER_FIELDS)[number], descending: boolean): Promise<string[]> {
  return plansOf((db) => listUsers(db, { sort, descending, page: 1, perPage: 3 }));
}

describe('SQLite: the user list reads its pages in index order', () => {
  it('every sort, both directions, without a temporary B-tree', async () => {
    for (const field of SORTABLE_USER_FIELDS) {
      for (const descending of [false, true]) {
        const page = (await plans(field, descending)).at(-1)!;
        expect(page, `${field} ${descending ? 'desc' : 'asc'}`).not.toContain('TEMP B-TREE');
        const folded = ['first_name', 'last_name', 'email'].includes(field);
        if (folded) expect(page).toContain(`users_${field}_sort_idx`);
      }
    }
  });
});

describe('SQLite: the statistics', () => {
  it('count users per status from the status index alone, not from the table', async () => {
    const counts = (await plansOf((db) => accountStatistics(db, new Date()))).find((plan) => plan.includes('CORRELATED SCALAR SUBQUERY'))!;
    expect(counts).toContain('SCAN users USING COVERING INDEX users_status_lower_idx');
  });
});
