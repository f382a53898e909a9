import type { Executor } from '../store/database.js';

/** What a job handler learns about the job it runs. */
export interface JobContext {
  id: string;
  queue: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
}

export type JobHandler<P = unknown> = (payload: P, context: JobContext) => Promise<void>;

export interface EnqueueOptions {
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** Runs in all, including the first. Default 5. */
  maxAttempts?: number;
}

export interface ProcessOptions {
  concurrency?: number;
  /** Delay before retry number `attempt` (1-based count of runs so far). Default: exponential with jitter. */
  backoffMs?: (attempt: number) => number;
  /** How long a claimed job is protected before another worker may take it over. */
  leaseMs?: number;
}

/** Thrown by a handler to retry at a chosen time (e.g. a receiver's Retry-After). */
export class RetryLater extends Error {
  override name = 'RetryLater';
  constructor(
    readonly delayMs: number,
    message = 'retry later',
  ) {
    super(message);
  }
}

/** Thrown by a handler when retrying cannot help; the job fails at once. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}

/**
 * A durable job queue: work enqueued survives crashes and restarts and is retried with backoff.
 * `enqueue` takes an optional transaction so a job is written atomically with the change behind it.
 */
export interface Queue {
  enqueue(queue: string, payload: unknown, options?: EnqueueOptions, executor?: Executor): Promise<void>;
  process<P>(queue: string, handler: JobHandler<P>, options?: ProcessOptions): void;
  /** Begins taking work for the queues registered with `process`. */
  start(): Promise<void>;
  /** Stops taking work and waits for jobs in hand. */
  stop(): Promise<void>;
  /** Checks for due work now (after a clock change in tests, or a commit elsewhere). */
  poke(): void;
  /** Resolves once no registered queue has work this process could take, and none is running here. */
  whenIdle(): Promise<void>;
}

/** Default retry delay: 1 s, 2 s, 4 s … capped at 10 min, ±20 % jitter. */
export function exponentialBackoff(attempt: number): number {
  const base = Math.min(1000 * 2 ** (attempt - 1), 600_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
