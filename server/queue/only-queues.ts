import type { EnqueueOptions, JobHandler, ProcessOptions, Queue } from './queue.js';
import type { Executor } from '../store/database.js';

/**
 * A view of a queue that works only on some queues (`verity worker --queues a,b`): handlers of
 * other queues are not registered, so this process never takes their jobs. Enqueueing is
 * unaffected. `offered` lists every queue a module offered to work on, to check the names given.
 */
export class OnlyQueues implements Queue {
  readonly offered = new Set<string>();

  constructor(
    readonly inner: Queue,
    readonly names: ReadonlySet<string>,
  ) {}

  enqueue(queue: string, payload: unknown, options?: EnqueueOptions, executor?: Executor): Promise<void> {
    return this.inner.enqueue(queue, payload, options, executor);
  }

  process<P>(queue: string, handler: JobHandler<P>, options?: ProcessOptions): void {
    this.offered.add(queue);
    if (this.names.has(queue)) this.inner.process(queue, handler, options);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  stop(): Promise<void> {
    return this.inner.stop();
  }

  poke(): void {
    this.inner.poke();
  }

  whenIdle(): Promise<void> {
    return this.inner.whenIdle();
  }
}
