// Piscina worker entry for a pool whose tasks are handled in TypeScript. Worker threads do not
// inherit the main thread's tsx loader, so this plain-JS file registers tsx, then loads the module
// the pool names in its workerData and hands every task to that module's `handler` export.
import { Piscina } from 'piscina';
import { register } from 'tsx/esm/api';

register();
/** @type {{ module: string, handler: string }} */
const { module, handler } = Piscina.workerData;
const loaded = import(module);

/** @param {unknown} task */
export default async function handle(task) {
  const handlers = await loaded;
  return handlers[handler](task);
}
