// Piscina worker entry. Worker threads do not inherit the main thread's tsx loader, so this
// plain-JS file registers tsx and then loads the TypeScript task handler.
import { register } from 'tsx/esm/api';

register();
const loaded = import('./worker.ts');

/** @param {import('./worker.ts').PoolTask} task */
export default async function handle(task) {
  const { runTask } = await loaded;
  return runTask(task);
}
