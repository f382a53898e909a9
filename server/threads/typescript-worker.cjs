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
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS entry (above)
const { getPriority, setPriority } = require('node:os');

/** @type {{ module: string, handler: string, niceIncrement: number }} */
const { module: moduleUrl, handler, niceIncrement } = Piscina.workerData;
// On Linux a thread's nice value is its own (pid 0 is this thread), and the threads it starts
// later (tesseract's workers, onnxruntime's) inherit it. Where that is refused (another OS, a
// container without the right), the thread keeps its priority: it only matters under load.
if (niceIncrement > 0) {
  try {
    setPriority(Math.min(19, getPriority() + niceIncrement));
  } catch {
    // keeps the default priority
  }
}
const loaded = import('tsx/esm/api').then(({ register }) => {
  register();
  return import(moduleUrl);
});

/** @param {unknown} task */
module.exports = async function handle(task) {
  const handlers = await loaded;
  return handlers[handler](task);
};
