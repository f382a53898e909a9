// Records which modules a Node process loads, for tests that prove a library stays unloaded.
// `node --import ./test/helpers/module-log.mjs …` with VERITY_TEST_MODULE_LOG=<file> appends one
// file: URL a line: every URL an `import` resolves to (ESM or CommonJS target, static or dynamic)
// as it resolves, and at exit every file of the CommonJS cache, because `require` calls inside
// CommonJS packages do not pass through the import hooks on Node 20.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const log = process.env.VERITY_TEST_MODULE_LOG;

/** The resolve hook (this file is also the hooks module, run on Node's hooks thread). */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (log) appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}

// Only the main thread registers: the hooks thread and worker threads load this file too.
if (isMainThread && log) {
  register(import.meta.url);
  const { cache } = createRequire(import.meta.url);
  process.on('exit', () => {
    appendFileSync(
      log,
      Object.keys(cache)
        .map((file) => `${pathToFileURL(file).href}\n`)
        .join(''),
    );
  });
}
