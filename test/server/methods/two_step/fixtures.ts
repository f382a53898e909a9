import type { TestServer } from '../../../helpers/server.js';

/** How many rows `table` holds (any user's): what deleting a user left behind. */
export async function rowsIn(server: TestServer, table: string): Promise<number> {
  return (
    await server.verity.ctx.db
      .selectFrom(table as never)
      .selectAll()
      .execute()
  ).length;
}
