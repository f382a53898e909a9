import type { TestServer } from '../../helpers/server.js';
import { createEndpoint, type CreateEndpointInput } from '../../../server/webhooks/endpoints.js';
import { webhooksOf } from '../../../server/webhooks/service.js';

/** An endpoint straight in the store (admin routes have their own tests); returns its secret. */
export async function addEndpoint(server: TestServer, input: CreateEndpointInput): Promise<{ id: number; secret: string }> {
  const { row, secret } = await createEndpoint(server.verity.ctx.db, input, server.clock.now(), server.config.secret);
  return { id: row.id, secret };
}

/** Creates a user on the Email-only template through the API; returns its id. */
export async function createUser(server: TestServer, body: Record<string, unknown> = {}): Promise<number> {
  const res = await server.api('/api/users', { body: { email: `u${Math.random().toString(36).slice(2)}@example.com`, template_id: 'tmpl_email', ...body } });
  if (res.status !== 200) throw new Error(`create user: ${res.status} ${res.text}`);
  return Number(res.body.id);
}

/** Moves the user's Email method to `status` through the API, which records the events. */
export async function moveEmail(server: TestServer, userId: number, status: string): Promise<void> {
  const res = await server.api(`/api/users/${userId}/verifications`, { method: 'PATCH', body: { verification_id: 'email', status } });
  if (res.status !== 200) throw new Error(`move: ${res.status} ${res.text}`);
}

/** Relays the outbox and runs the queue until nothing is due (the clock does not move). */
export async function settle(server: TestServer): Promise<void> {
  const service = webhooksOf(server.verity.ctx);
  service.relay.wake();
  await service.relay.settled();
  await server.verity.ctx.queue.whenIdle();
}

/** The delivery rows, oldest first. */
export function deliveries(server: TestServer) {
  return server.verity.ctx.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
}

export function attempts(server: TestServer, deliveryId: number) {
  return server.verity.ctx.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
}
