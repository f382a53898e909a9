/**
 * A method module never imports the registry that lists it, directly or through another module
 * (the session core, the hosted page's headers): whatever it needs of them comes through its
 * `SessionKit` / `AdminKit`. Otherwise importing that method first (a script, a worker, a test)
 * reaches the registry while the method's own module is still being evaluated, and the registry's
 * list throws a ReferenceError (it did for Live Video and Social Account).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const METHODS = join(ROOT, 'server/methods');
const REGISTRY = join(METHODS, 'registry.ts');

/** An import chain from `file` back to itself, when its imports lead back to it. */
function cycleThrough(file: string): string[] | null {
  for (const next of valueImports(file)) {
    const chain = chainToRegistry(next, file);
    if (chain) return [relative(ROOT, file), ...chain];
  }
  return null;
}

/** Each method's folder (server/methods/<key>/, shared implementations such as code/ and oidc/ included). */
const folders = readdirSync(METHODS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => join(METHODS, d.name));

const importsOf = new Map<string, string[]>();

/** The relative modules `file` imports for their values (type-only imports are erased and load nothing). */
function valueImports(file: string): string[] {
  const known = importsOf.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const node of source.statements) {
    if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier)) continue;
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      if (clause?.isTypeOnly || (clause && !clause.name && named && named.length > 0 && named.every((e) => e.isTypeOnly))) continue;
    } else if (node.isTypeOnly) continue;
    const spec = node.moduleSpecifier.text;
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    if (target.endsWith('.ts') && existsSync(target)) out.push(target);
  }
  importsOf.set(file, out);
  return out;
}

/** The import chain from `from` to `target` (the registry unless said), when there is one. */
function chainToRegistry(from: string, target = REGISTRY): string[] | null {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (file === target) {
      const chain: string[] = [];
      for (let f: string | null = file; f !== null; f = previous.get(f) ?? null) chain.unshift(relative(ROOT, f));
      return chain;
    }
    for (const next of valueImports(file))
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
  }
  return null;
}

describe('method modules and the registry', () => {
  it('no module of a method folder reaches the registry through its imports', () => {
    const modules = folders.flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
        .map((f) => join(dir, f)),
    );
    expect(modules.length).toBeGreaterThan(50);
    const chains = modules.map((m) => chainToRegistry(m)).filter((c) => c !== null);
    expect(chains.map((c) => c.join(' → '))).toEqual([]);
  });

  it('no module of a method folder imports, through other modules, a module that imports it back', () => {
    // A loop through the core (the analysis runner dispatching to Video's job, which took the
    // runner's helpers) makes the first of the two to load see the other half-evaluated.
    const modules = folders.flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
        .map((f) => join(dir, f)),
    );
    const cycles = modules.map(cycleThrough).filter((c) => c !== null);
    expect(cycles.map((c) => c.join(' → '))).toEqual([]);
  });

  it('sees a chain through another folder (the check itself)', () => {
    // The registry lists the methods, and the hosted page's routes import the registry.
    expect(chainToRegistry(join(ROOT, 'server/http/hosted/routes.ts'))).toEqual(['server/http/hosted/routes.ts', 'server/methods/registry.ts']);
    expect(chainToRegistry(join(ROOT, 'server/session/actions.ts'))?.at(-1)).toBe('server/methods/registry.ts');
  });

  // Each in a fresh module graph (the test runner's registry emptied; the file runs isolated, see
  // vitest.config.ts) in which the method's module comes first; the registry it reaches then must
  // list every method whole. The first one loads the whole server: a generous timeout.
  const entries = folders.map((dir) => join(dir, 'index.ts')).filter((f) => existsSync(f));
  it.each(entries.map((f) => [relative(ROOT, f), f]))('%s can be the first module imported', { timeout: 120_000 }, async (_name, file) => {
    vi.resetModules();
    const method: Record<string, unknown> = await import(pathToFileURL(file).href);
    const registry: typeof import('../../../server/methods/registry.js') = await import(pathToFileURL(REGISTRY).href);
    expect(registry.SERVER_METHODS.every((m) => typeof m?.key === 'string')).toBe(true);
    expect(Object.values(method).some((v) => (registry.SERVER_METHODS as readonly unknown[]).includes(v))).toBe(true);
  });
});
