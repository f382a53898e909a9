import { CompiledQuery, createQueryId, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listUsers, SORTABLE_USER_FIELDS } from '../../../server/store/users-repo.js';
import { openScratchSqlite, type ScratchSqlite } from '../../helpers/scratch-sqlite.js';

let scratch: ScratchSqlite;
beforeAll(async () => {
  scratch = await openScratchSqlite('list-plans');
});
afterAll(async () => {
  await scratch.close();
});

/** How SQLite runs each statement `listUsers` sends (no search), as `explain query plan` lines. */
async function plans(sort: (typeof SORTABLE_USER_FIELDS)[number], descending: boolean): Promise<string[]> {
  const nodes: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const db = scratch.db.withPlugin(recorder);
  await listUsers(db, { sort, descending, page: 1, perPage: 3 });
  const out: string[] = [];
  for (const node of nodes) {
    const compiled = scratch.db.getExecutor().compileQuery(node, createQueryId());
    const { rows } = await scratch.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    out.push(rows.map((r) => r.detail).join('\n'));
  }
  return out;
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
