import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

type PiscinaOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

/**
 * A piscina pool whose tasks go to `handler`, an export of the TypeScript module at `module` (a
 * URL, usually `new URL('./x.ts', import.meta.url)`), run in worker threads through tsx.
 */
export function typescriptPool<Task, Result>(module: URL, handler: string, options: Omit<PiscinaOptions, 'filename' | 'workerData'>): Piscina<Task, Result> {
  return new Piscina<Task, Result>({
    // Tasks run in the order they came: without this, a task that finds every thread busy when
    // another finishes goes to the back of the queue, and under a steady load some searches
    // waited seconds while later ones ran (issue 2).
    stricterFIFO: true,
    ...options,
    filename: fileURLToPath(new URL('./typescript-worker.cjs', import.meta.url)),
    workerData: { module: module.href, handler },
  });
}
