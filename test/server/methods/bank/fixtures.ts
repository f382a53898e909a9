import { expect } from 'vitest';
import type { SessionClient } from '../../../../src/api/session-client.js';
import { items, type TestServer } from '../../../helpers/server.js';
import { AdminClient } from '../../http/admin/admin-client.js';
import { client, createTemplate, createUser, local } from '../../session/fixtures.js';

/** A valid German IBAN (the checksum example of the standard) as a user might type it. */
export const IBAN_TYPED = 'de89 3704 0044 0532 0130 00';
export const IBAN = 'DE89370400440532013000';

/** A user with Bank assigned, named Jane Doe, in a started session. */
export async function bankUser(server: TestServer, names: { first_name: string; last_name: string } = { first_name: 'Jane', last_name: 'Doe' }) {
  const template = await createTemplate(server, 'tmpl_bank', [11]);
  const created = await createUser(server, { email: 'bank.user@example.com', ...names, template_id: template });
  const session = client(server);
  await session.start(local(server, created.link));
  return { userId: created.id, link: created.link, session };
}

/** The bank step's needs in the session view. */
export async function bankNeeds(session: SessionClient) {
  const view = (await session.session()).methods.find((m) => m.key === 'bank');
  if (view?.key !== 'bank') throw new Error('no bank step');
  return { status: view.status, ...view.needs };
}

/**
 * The amounts (in cents) of the user's newest pending payout, as an operator reads them in the
 * dashboard (signing in anew: days may have passed; the admin must exist, see `signedInAdmin`).
 */
export async function pendingAmounts(server: TestServer, userId: number): Promise<[number, number]> {
  await server.verity.ctx.queue.whenIdle();
  const admin = new AdminClient(server);
  expect((await admin.login()).status).toBe(200);
  const res = await admin.request('GET', '/admin/api/bank-payouts?status=pending');
  expect(res.status).toBe(200);
  const payout = items(res.body.data).find((p) => Number(p.user_id) === userId);
  if (!payout) throw new Error('no pending payout');
  const amounts = items(payout.pay?.amounts).map((a) => Math.round(Number(a) * 100));
  return [amounts[0]!, amounts[1]!];
}

/** A pair that is not `right` in either order (its first amount moved by one). */
export function wrongPair(right: readonly [number, number]): [number, number] {
  return [(right[0] % 99) + 1 === right[1] ? ((right[0] + 1) % 99) + 1 : (right[0] % 99) + 1, right[1]];
}
