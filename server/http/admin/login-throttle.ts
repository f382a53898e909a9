import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { AlignedWindow, secondsUntil } from '../aligned-window.js';
import type { LimiterFactory } from '../limiter-factory.js';

/** The window every sign-in count lives in (clock-aligned quarter hours). */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Failed sign-ins one client address may make per window, over all accounts (password spraying). */
export const LOGIN_FAILURES_PER_ADDRESS = 30;
/** Failures one address may make on one account before each further try waits (1 s, 2 s, 4 s … 512 s). */
export const LOGIN_FREE_FAILURES_PER_PAIR = 3;
/**
 * Failures on one account, from everywhere, before its tries are spaced (1 s, 2 s … 64 s). More
 * than one address can fail on an account within a window (3 free, then one try per 1 + 2 + … s),
 * so one attacker alone never slows the account's owner down; only a distributed guess does.
 */
export const LOGIN_FREE_FAILURES_PER_ACCOUNT = 20;
const PAIR_MAX_LEVEL = 9;
const ACCOUNT_MAX_LEVEL = 6;
/** Failures counted per window can never refuse by count; the slots do the spacing. */
const UNCOUNTED = 1_000_000;

/** One sign-in attempt let through: report its outcome with {@link LoginThrottle.outcome}. */
export interface LoginTicket {
  readonly account: string;
  readonly pair: string;
  readonly address: string;
  readonly nowMs: number;
  readonly pairFailures: number;
  /** Undefined when the try skipped the account's count (a known browser of the account). */
  readonly accountFailures: number | undefined;
}

export type LoginAdmission = { admitted: true; ticket: LoginTicket } | { admitted: false; retryAfterSeconds: number };

/**
 * Exponential spacing of one kind of key: the first `free` failures in a window cost nothing; after
 * that, at most one try per clock-aligned slot of 1 s, 2 s, 4 s … (doubling per failure, up to
 * 2^maxLevel s). A failure takes the slot the next try would need, so a try in the same slot is
 * refused without being checked. Counts are reserved before the password is checked (atomic in
 * Redis as in memory), so parallel tries cannot all pass as "the first".
 */
class Spacing {
  readonly #failures: AlignedWindow;
  readonly #slots: AlignedWindow[];

  constructor(
    factory: LimiterFactory,
    prefix: string,
    private readonly free: number,
    private readonly maxLevel: number,
  ) {
    this.#failures = new AlignedWindow(factory, UNCOUNTED, LOGIN_WINDOW_SECONDS, `${prefix}:failures`);
    this.#slots = Array.from({ length: maxLevel + 1 }, (_, level) => new AlignedWindow(factory, 1, 2 ** level, `${prefix}:slot${level}`));
  }

  /** Reserves a failure for `key`; resolves with the count (this try included), or the end of the slot to wait for. */
  async reserve(key: string, nowMs: number): Promise<{ count: number } | { waitUntilMs: number }> {
    const count = (await this.#failures.take(key, nowMs)).used;
    if (count <= this.free) return { count };
    const slot = await this.#slot(count).take(key, nowMs);
    if (slot.allowed) return { count };
    await this.#failures.giveBack(key, nowMs);
    return { waitUntilMs: slot.resetMs };
  }

  /** The try was not a failure after all: its reservation goes back. */
  release(key: string, nowMs: number): Promise<void> {
    return this.#failures.giveBack(key, nowMs);
  }

  /** The try with reserved `count` failed: the next try waits for the end of its slot. */
  async failed(key: string, count: number, nowMs: number): Promise<void> {
    if (count + 1 > this.free) await this.#slot(count + 1).take(key, nowMs);
  }

  /** The right password: start over. */
  reset(key: string, nowMs: number): Promise<void> {
    return this.#failures.clear(key, nowMs);
  }

  #slot(count: number): AlignedWindow {
    return this.#slots[Math.min(count - this.free - 1, this.maxLevel)]!;
  }
}

/**
 * Admin sign-in throttling (issue 18, point 4; OWASP Authentication Cheat Sheet): nothing locks an
 * account, and the right password is never refused because of someone else's failures.
 * - per (account, client address): 3 free failures, then each try waits out a doubling slot;
 * - per account, over all addresses: 20 free failures, then each try waits out a doubling slot up to
 *   64 s; one address alone cannot reach 20 in a window, so only a distributed guess slows others;
 * - per client address, over all accounts: 30 failures a window, then 429 until it ends (spraying).
 * A successful sign-in counts nowhere and resets its account's and its pair's failures. Counts
 * live in the app's limiters (Redis across processes) under clock-aligned windows, and the account
 * is keyed by a hash of the normalised e-mail (known or not, so refusals reveal nothing, and no
 * e-mail sits in Redis).
 */
export class LoginThrottle {
  readonly #address: AlignedWindow;
  readonly #pair: Spacing;
  readonly #account: Spacing;

  constructor(
    factory: LimiterFactory,
    private readonly clock: Clock,
  ) {
    this.#address = new AlignedWindow(factory, LOGIN_FAILURES_PER_ADDRESS, LOGIN_WINDOW_SECONDS, 'admin-login:address');
    this.#pair = new Spacing(factory, 'admin-login:pair', LOGIN_FREE_FAILURES_PER_PAIR, PAIR_MAX_LEVEL);
    this.#account = new Spacing(factory, 'admin-login:account', LOGIN_FREE_FAILURES_PER_ACCOUNT, ACCOUNT_MAX_LEVEL);
  }

  /**
   * Lets a sign-in for `email` from `address` be checked, or says how long to wait. `knownDevice`:
   * the browser proved an earlier sign-in to this account (device cookie); it skips the account-wide
   * count, so a distributed guess never slows the owner's own browser.
   */
  async admit(email: string, address: string, knownDevice = false): Promise<LoginAdmission> {
    const nowMs = this.clock.now().getTime();
    const account = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 24);
    const pair = `${account}|${address}`;
    const byAddress = await this.#address.take(address, nowMs);
    if (!byAddress.allowed) return { admitted: false, retryAfterSeconds: secondsUntil(byAddress.resetMs, nowMs) };
    const pairTry = await this.#pair.reserve(pair, nowMs);
    if ('waitUntilMs' in pairTry) {
      await this.#address.giveBack(address, nowMs);
      return { admitted: false, retryAfterSeconds: secondsUntil(pairTry.waitUntilMs, nowMs) };
    }
    if (knownDevice) return { admitted: true, ticket: { account, pair, address, nowMs, pairFailures: pairTry.count, accountFailures: undefined } };
    const accountTry = await this.#account.reserve(account, nowMs);
    if ('waitUntilMs' in accountTry) {
      await Promise.all([this.#address.giveBack(address, nowMs), this.#pair.release(pair, nowMs)]);
      return { admitted: false, retryAfterSeconds: secondsUntil(accountTry.waitUntilMs, nowMs) };
    }
    return { admitted: true, ticket: { account, pair, address, nowMs, pairFailures: pairTry.count, accountFailures: accountTry.count } };
  }

  /**
   * What the attempt came to: `failed` (wrong password or second factor), `succeeded`, or
   * `undecided` (the password was right but the second factor was not given yet).
   */
  async outcome(ticket: LoginTicket, result: 'failed' | 'succeeded' | 'undecided'): Promise<void> {
    const { account, pair, address, nowMs } = ticket;
    const counted = ticket.accountFailures;
    if (result === 'failed') {
      await Promise.all([
        this.#pair.failed(pair, ticket.pairFailures, nowMs),
        counted === undefined ? undefined : this.#account.failed(account, counted, nowMs),
      ]);
      return;
    }
    await this.#address.giveBack(address, nowMs);
    if (result === 'succeeded') await Promise.all([this.#pair.reset(pair, nowMs), this.#account.reset(account, nowMs)]);
    else await Promise.all([this.#pair.release(pair, nowMs), counted === undefined ? undefined : this.#account.release(account, nowMs)]);
  }
}
