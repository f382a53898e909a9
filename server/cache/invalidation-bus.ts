import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { ErrorLog } from '../error-log.js';

/**
 * A small publish/subscribe bus for "this changed, drop your copy" notices between the processes of
 * one Verity (caches, live-progress streams). Embedded: in this process only. Scale-out: over Redis
 * pub/sub, so a change made by one process reaches every other process at once.
 *
 * Delivery is best effort (Redis pub/sub keeps nothing for a subscriber that is away), so every
 * user keeps a safety net of its own (a cache TTL, a polling timer) and clears what it holds when
 * `onMissed` fires.
 */
export interface InvalidationBus {
  /**
   * Sends `message` to every subscriber of `channel`: in this process synchronously, before
   * `publish` returns; in other processes as soon as Redis delivers it. Never throws: a failed
   * send is logged and left to the subscribers' safety nets.
   */
  publish(channel: string, message: string): void;
  /** Calls `listener` for every message on `channel`, from this process or another. Returns the unsubscribe. */
  subscribe(channel: string, listener: (message: string) => void): () => void;
  /**
   * Calls `listener` when messages may have been lost (the Redis subscription came back after a
   * disconnect): drop everything cached. Never fires on the in-process bus. Returns the unsubscribe.
   */
  onMissed(listener: () => void): () => void;
  /** Stops delivering and closes what the bus opened (the Redis subscriber connection). */
  close(): Promise<void>;
}

/** Channel names are short identifiers: they become part of a Redis channel name. */
function checkChannel(channel: string): void {
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(channel)) throw new Error(`invalid bus channel name: ${channel}`);
}

/** The embedded default: one process, so a synchronous event emitter is the whole bus. */
export class LocalInvalidationBus implements InvalidationBus {
  readonly #local = new EventEmitter();

  constructor() {
    // One listener per cache or open stream; many may be subscribed at once.
    this.#local.setMaxListeners(0);
  }

  publish(channel: string, message: string): void {
    checkChannel(channel);
    this.#local.emit(channel, message);
  }

  subscribe(channel: string, listener: (message: string) => void): () => void {
    checkChannel(channel);
    this.#local.on(channel, listener);
    return () => this.#local.off(channel, listener);
  }

  onMissed(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.#local.removeAllListeners();
  }
}

export interface RedisBusOptions {
  /** Sends the messages. A connection that fails at once when Redis is away (no offline queue) suits best. */
  publisher: Redis;
  /**
   * A connection of the bus's own, put in subscriber mode (Redis allows no other commands on it).
   * The bus connects it when not yet connected, and quits it on `close`.
   */
  subscriber: Redis;
  /** The deployment's key prefix (`VERITY_REDIS_URL ?prefix=`): several Verity can share one Redis. */
  prefix: string;
  log: ErrorLog;
}

/**
 * Scale-out: every message goes to Redis channel `<prefix>:bus:<channel>` as `<origin> <message>`.
 * This process's own subscribers get it synchronously; the copy Redis echoes back to this
 * process is recognised by its origin and dropped.
 */
export class RedisInvalidationBus implements InvalidationBus {
  readonly #local = new EventEmitter();
  readonly #missed = new EventEmitter();
  readonly #origin = randomUUID();
  readonly #counts = new Map<string, number>();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #log: ErrorLog;
  #wasReady = false;
  #closed = false;

  private constructor(options: RedisBusOptions) {
    this.#publisher = options.publisher;
    this.#subscriber = options.subscriber;
    this.#prefix = options.prefix;
    this.#log = options.log;
    this.#local.setMaxListeners(0);
    this.#missed.setMaxListeners(0);
    this.#subscriber.on('message', (redisChannel: string, payload: string) => this.#receive(redisChannel, payload));
    this.#subscriber.on('ready', () => {
      // The first `ready` is the start; a later one is a reconnect, after which ioredis has
      // subscribed again but whatever was published meanwhile is gone.
      if (this.#wasReady && !this.#closed) this.#missed.emit('missed');
      this.#wasReady = true;
    });
  }

  /** Connects the subscriber (if it is not yet) and returns the bus. */
  static async open(options: RedisBusOptions): Promise<RedisInvalidationBus> {
    const bus = new RedisInvalidationBus(options);
    if (options.subscriber.status === 'wait') await options.subscriber.connect();
    else if (options.subscriber.status === 'ready') bus.#wasReady = true;
    return bus;
  }

  publish(channel: string, message: string): void {
    checkChannel(channel);
    this.#local.emit(channel, message);
    if (this.#closed) return;
    this.#publisher.publish(this.#redisChannel(channel), `${this.#origin} ${message}`).catch((err: unknown) => {
      this.#log.error({ err }, 'invalidation bus: publish failed');
    });
  }

  subscribe(channel: string, listener: (message: string) => void): () => void {
    checkChannel(channel);
    this.#local.on(channel, listener);
    const count = (this.#counts.get(channel) ?? 0) + 1;
    this.#counts.set(channel, count);
    if (count === 1) this.#redisSubscribe(channel);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      this.#local.off(channel, listener);
      const left = (this.#counts.get(channel) ?? 1) - 1;
      if (left > 0) {
        this.#counts.set(channel, left);
        return;
      }
      this.#counts.delete(channel);
      if (!this.#closed) {
        this.#subscriber.unsubscribe(this.#redisChannel(channel)).catch((err: unknown) => {
          this.#log.error({ err }, 'invalidation bus: unsubscribe failed');
        });
      }
    };
  }

  onMissed(listener: () => void): () => void {
    this.#missed.on('missed', listener);
    return () => this.#missed.off('missed', listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#local.removeAllListeners();
    this.#missed.removeAllListeners();
    await this.#subscriber.quit().catch(() => undefined);
  }

  #redisChannel(channel: string): string {
    return `${this.#prefix}:bus:${channel}`;
  }

  #redisSubscribe(channel: string): void {
    // ioredis queues the command until the connection is ready and subscribes again after a reconnect.
    this.#subscriber.subscribe(this.#redisChannel(channel)).catch((err: unknown) => {
      this.#log.error({ err }, 'invalidation bus: subscribe failed');
    });
  }

  #receive(redisChannel: string, payload: string): void {
    const head = `${this.#prefix}:bus:`;
    if (this.#closed || !redisChannel.startsWith(head)) return;
    const space = payload.indexOf(' ');
    if (space < 0) return;
    if (payload.slice(0, space) === this.#origin) return; // our own, already delivered locally
    this.#local.emit(redisChannel.slice(head.length), payload.slice(space + 1));
  }
}
