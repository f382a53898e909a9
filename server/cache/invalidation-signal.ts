import type { InvalidationBus } from './invalidation-bus.js';

/**
 * "What you cached may be stale" for one kind of cached rows, in this process and, over the
 * connected invalidation buses, in every other. Caches stamp each entry with the `generation` it
 * was read under and treat an entry of an older generation as a miss.
 *
 * A writer may announce its change inside its transaction, before the commit; a read just after
 * that could fetch (and cache) the row as it was before. So for a quiet period after each change
 * `mayStore` says no, and reads go to the database until the writer has surely committed.
 */
export class InvalidationSignal {
  #generation = 0;
  #quietUntil = 0;
  readonly #buses = new Set<InvalidationBus>();

  /** `quietMs` must be longer than any writer's transaction takes to commit after its write. */
  constructor(
    private readonly channel: string,
    private readonly quietMs: number,
  ) {}

  /** Bumped by every change seen here or announced by another process. */
  get generation(): number {
    return this.#generation;
  }

  /** Whether a value read at `now` (ms since the epoch) may be kept. */
  mayStore(now: number): boolean {
    return now >= this.#quietUntil;
  }

  /** Something changed: stale here at once, and announced on every connected bus. */
  changed(): void {
    this.#dropLocally();
    for (const bus of this.#buses) bus.publish(this.channel, 'all');
  }

  /** Ties this signal to a bus: notices in (or a gap in them) mark everything stale. Returns the disconnect. */
  connect(bus: InvalidationBus): () => void {
    this.#buses.add(bus);
    const offMessage = bus.subscribe(this.channel, () => this.#dropLocally());
    const offMissed = bus.onMissed(() => this.#dropLocally());
    return () => {
      this.#buses.delete(bus);
      offMessage();
      offMissed();
    };
  }

  #dropLocally(): void {
    this.#generation++;
    this.#quietUntil = Date.now() + this.quietMs;
  }
}
