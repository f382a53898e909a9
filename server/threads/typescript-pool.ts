import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

type PiscinaOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

export interface TypescriptPoolOptions extends Omit<PiscinaOptions, 'filename' | 'workerData' | 'niceIncrement'> {
  /**
   * Added to each worker thread's nice value (Linux: per thread, inherited by the threads it
   * starts), so the main thread's event loop is scheduled first when the cores are busy.
   * Node's own `os.setPriority` does it; piscina's `niceIncrement` would need a native package.
   */
  readonly niceIncrement?: number;
}

/**
 * A piscina pool whose tasks go to `handler`, an export of the TypeScript module at `module` (a
 * URL, usually `new URL('./x.ts', import.meta.url)`), run in worker threads through tsx.
 */
export function typescriptPool<Task, Result>(module: URL, handler: string, options: TypescriptPoolOptions): Piscina<Task, Result> {
  const { niceIncrement = 0, ...piscinaOptions } = options;
  return new Piscina<Task, Result>({
    // Tasks run in the order they came: without this, a task that finds every thread busy when
    // another finishes goes to the back of the queue, and under a steady load some searches
    // waited seconds while later ones ran (issue 2).
    stricterFIFO: true,
    ...piscinaOptions,
    filename: fileURLToPath(new URL('./typescript-worker.cjs', import.meta.url)),
    workerData: { module: module.href, handler, niceIncrement },
  });
}
