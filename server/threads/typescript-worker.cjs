// Piscina worker entry for a pool whose tasks are handled in TypeScript. Worker threads do not
// inherit the main thread's tsx loader, so this file registers tsx, then loads the module the
// pool names in its workerData and hands every task to that module's `handler` export.
//
// CommonJS on purpose: piscina loads its entry with require() first, and on Node 20.19+ a
// require() of an ES module can abort the whole process (V8 fatal error "IsGraphAsync must be
// used on an instantiated module" when it meets an import() of the same graph; seen in CI). Here
// require() only ever loads this CommonJS file; everything else is import()ed.
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS entry (above)
const { Piscina } = require('piscina');

/** @type {{ module: string, handler: string }} */
const { module: moduleUrl, handler } = Piscina.workerData;
const loaded = import('tsx/esm/api').then(({ register }) => {
  register();
  return import(moduleUrl);
});

/** @param {unknown} task */
module.exports = async function handle(task) {
  const handlers = await loaded;
  return handlers[handler](task);
};
