/**
 * Looking a user's DEA number up in a registry (spec 4.3: "validated against a government data
 * source"). Pluggable: a provider answers one number; none is configured by default, and then the
 * result says "not checked against a registry" (domain/dea-number.ts). The lookup runs on a queue
 * after the user is created, so a slow or absent registry never holds up Create User, and retries.
 */
import { matchName } from '../analysis/stages/name-match.js';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import { deaCheckDigitValid, deaChecks, deaFormatValid, normaliseDeaNumber, type DeaRegistryResult } from '../domain/dea-number.js';
import type { VerificationCheck } from '../domain/verification-checks.js';
import { PermanentFailure } from '../queue/queue.js';
import { methodState } from '../session/state-repo.js';
import type { Executor } from '../store/database.js';
import type { UserRow } from '../store/schema.js';
import { findUserById } from '../store/repos/users-repo.js';

/** The queue lookups wait in. */
export const DEA_QUEUE = 'dea-registry';
export interface DeaLookupJob {
  userId: number;
}

/** What a registry holds of a number: whether it is registered and active, and to whom. */
export interface DeaRegistration {
  status: 'active' | 'inactive' | 'not_found';
  registrant_name: string | null;
}

/**
 * A DEA registry. Implementations must pass the contract test
 * (test/server/services/dea-registry-contract.ts): an unknown number answers `not_found`, a
 * registry that cannot answer throws {@link DeaRegistryUnavailable}.
 */
export interface DeaRegistry {
  readonly name: string;
  lookup(deaNumber: string): Promise<DeaRegistration>;
}

/** The registry could not answer (down, refused our credentials, answered nonsense). */
export class DeaRegistryUnavailable extends Error {
  override name = 'DeaRegistryUnavailable';
}

/**
 * A registry speaking Verity's small lookup protocol: `POST {url}/dea-registrations/lookup` with
 * `{ "dea_number": "AB1234563" }` (bearer token when configured) → 200 `{ "status": "active" |
 * "inactive", "registrant_name": "…" }`, or 404 when no such registration exists. A gateway in front
 * of a licensed DEA data source (the NTIS Controlled Substances Act file, a verification vendor)
 * answers it. The number goes in the body, never the URL (URLs end up in access logs).
 */
export class HttpDeaRegistry implements DeaRegistry {
  readonly name = 'dea_registry_http';
  constructor(
    private readonly options: { url: string; token: string | undefined },
    private readonly timeoutMs = 10_000,
  ) {}

  async lookup(deaNumber: string): Promise<DeaRegistration> {
    let response: Response;
    try {
      response = await fetch(`${this.options.url}/dea-registrations/lookup`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
        },
        body: JSON.stringify({ dea_number: deaNumber }),
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new DeaRegistryUnavailable('the DEA registry did not answer');
    }
    const text = await response.text().catch(() => '');
    if (response.status === 404) return { status: 'not_found', registrant_name: null };
    if (!response.ok) throw new DeaRegistryUnavailable(`the DEA registry answered ${response.status}`);
    let body: { status?: unknown; registrant_name?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new DeaRegistryUnavailable('the DEA registry answered something other than JSON');
    }
    if (body.status !== 'active' && body.status !== 'inactive') throw new DeaRegistryUnavailable('the DEA registry gave no status');
    const name = typeof body.registrant_name === 'string' && body.registrant_name.trim() !== '' ? body.registrant_name.slice(0, 300) : null;
    return { status: body.status, registrant_name: name };
  }
}

/** The configured registry (VERITY_DEA_REGISTRY_URL), or none. */
export function deaRegistry(config: Config): DeaRegistry | undefined {
  return config.deaRegistry ? new HttpDeaRegistry(config.deaRegistry) : undefined;
}

/** The registry's last answer for a user (`method_state` under `dea_registry`; gone with the user). */
export const deaRegistryState = methodState<DeaRegistryResult>('dea_registry');

/** Queues a registry lookup of a new user's number, when a registry is configured and the number could be registered. */
export async function queueDeaLookup(ctx: AppContext, trx: Executor, user: Pick<UserRow, 'id' | 'dea_number'>): Promise<void> {
  if (!ctx.config.deaRegistry || !user.dea_number) return;
  const number = normaliseDeaNumber(user.dea_number);
  if (!deaFormatValid(number) || !deaCheckDigitValid(number)) return;
  await ctx.queue.enqueue(DEA_QUEUE, { userId: user.id } satisfies DeaLookupJob, { maxAttempts: 5 }, trx);
}

/**
 * Consumes the lookup queue. A registry that cannot answer is retried; after the last attempt the
 * result says it could not be reached (flagged for a person), never that the number is fine.
 */
export function registerDeaWorker(ctx: AppContext, registry: DeaRegistry | undefined = deaRegistry(ctx.config)): void {
  if (!registry) return;
  ctx.queue.process<DeaLookupJob>(
    DEA_QUEUE,
    async (job, { attempt, maxAttempts }) => {
      const user = await findUserById(ctx.db, job.userId);
      if (!user?.dea_number) return;
      const checkedAt = ctx.clock.now();
      let answer: DeaRegistration;
      try {
        answer = await registry.lookup(normaliseDeaNumber(user.dea_number));
      } catch (error: unknown) {
        if (!(error instanceof DeaRegistryUnavailable)) throw error;
        if (attempt < maxAttempts) throw error;
        await deaRegistryState.write(ctx.db, user.id, { outcome: 'unavailable', provider: registry.name, checked_at: checkedAt.toISOString() }, checkedAt);
        throw new PermanentFailure(error.message);
      }
      const lastNameMatches =
        answer.registrant_name && user.last_name
          ? (matchName({ firstName: user.first_name ?? '', lastName: user.last_name }, answer.registrant_name)?.last_name ?? false)
          : null;
      await deaRegistryState.write(
        ctx.db,
        user.id,
        { outcome: 'answered', provider: registry.name, checked_at: checkedAt.toISOString(), ...answer, last_name_matches: lastNameMatches },
        checkedAt,
      );
    },
    { concurrency: 2 },
  );
}

/** A user's DEA number with its checks, as the customer and the reviewer read it; null when the user gave none. */
export interface DeaResult {
  dea_number: string;
  checks: VerificationCheck[];
  registry: DeaRegistryResult | null;
}

export async function deaResult(ctx: AppContext, user: Pick<UserRow, 'id' | 'dea_number' | 'last_name'>): Promise<DeaResult | null> {
  if (!user.dea_number || user.dea_number.trim() === '') return null;
  const registry = await deaRegistryState.read(ctx.db, user.id);
  const known = registry ?? (ctx.config.deaRegistry ? 'pending' : undefined);
  return { dea_number: user.dea_number, checks: deaChecks(user.dea_number, user.last_name, known), registry: registry ?? null };
}
