/**
 * Web builds, one per mode (`vite build --mode <mode>`), all into `dist/web/` (git-ignored),
 * which the server serves under `/web/`:
 * - `esm`:    ES modules for `<script type="module">` and bundlers → `dist/web/esm/`
 *             (`verity.js` registers both elements; `verify-button.js`, `verify-flow.js` one each;
 *             steps, capture code and mediapipe are lazy chunks).
 * - `iife`:   the single-file script-tag embed → `dist/web/verity.js` (`<verify-button>`; loads
 *             `esm/verify-flow.js` on demand when the page uses `<verify-flow>`). plugin-legacy
 *             refuses library mode, so this one uses `build.target` for reach instead.
 * - `dashboard`: the admin dashboard and the self-signup page → `dist/web/pages/` (served at
 *             `/admin` and `/signup` with a CSP nonce, assets under `/web/pages/`).
 * - `hosted`: the hosted page `/security-verify` as an app build with @vitejs/plugin-legacy →
 *             `dist/web/hosted/` (the server serves `index.html` at `/security-verify`, adding a
 *             CSP nonce to each `<script>`, and the assets under `/web/hosted/`).
 * - `bench-page`: the page bench/widget.ts measures (not shipped).
 */
import { resolve } from 'node:path';
import legacy from '@vitejs/plugin-legacy';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

const root = import.meta.dirname;
const out = (...parts: string[]): string => resolve(root, 'dist/web', ...parts);

/**
 * For the script-tag embed (no source map): Lit templates keep their source indentation as
 * text, which HTML collapses anyway. The minifier prints template literals with real newlines,
 * so any newline plus indentation left in the minified output belongs to a template and becomes
 * one space.
 */
function collapseTemplateWhitespace(): Plugin {
  return {
    name: 'verity-collapse-template-whitespace',
    generateBundle(_options, bundle) {
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') item.code = item.code.replace(/\n[ \t]+/g, ' ');
      }
    },
  };
}

/**
 * For the script-tag embed (no source map): collapses the whitespace inside the `css` tagged
 * templates of our `*.styles.ts` files (they hold no `${}` expressions), so the shipped CSS is as
 * small as minified CSS.
 */
function minifyCssTemplates(): Plugin {
  return {
    name: 'verity-minify-css-templates',
    transform(code, id) {
      if (!id.endsWith('.styles.ts')) return null;
      return code.replace(/css`([^`]*)`/g, (_, body: string) => {
        const min = body
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/\s+/g, ' ')
          .replace(/\s*([{};,>])\s*/g, '$1')
          .replace(/:\s+/g, ':')
          .replace(/;}/g, '}')
          .trim();
        return `css\`${min}\``;
      });
    },
  };
}

export default defineConfig(({ mode }): UserConfig => {
  const shared: UserConfig = {
    root,
    publicDir: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    resolve: { conditions: ['browser', 'production'] },
    // The face worker (src/capture/face-model.ts) is started as a module worker.
    worker: { format: 'es' },
  };
  if (mode === 'iife') {
    return {
      ...shared,
      plugins: [minifyCssTemplates(), collapseTemplateWhitespace()],
      build: {
        target: 'es2022',
        outDir: out(),
        emptyOutDir: false,
        sourcemap: false,
        lib: { entry: resolve(root, 'src/embed.ts'), formats: ['iife'], name: 'Verity', fileName: () => 'verity.js' },
      },
    };
  }
  if (mode === 'bench-page') {
    return {
      ...shared,
      root: resolve(root, 'bench/widget-page'),
      base: './',
      build: { outDir: resolve(root, '.wtr-tmp/bench/page'), emptyOutDir: true, target: 'es2022' },
    };
  }
  if (mode === 'dashboard') {
    // The dashboard (`/admin`) and the self-signup page (`/signup`): an app build of two pages →
    // `dist/web/pages/{admin,signup}/index.html`, assets under `/web/pages/assets/` (issue 7).
    return {
      ...shared,
      root: resolve(root, 'src'),
      base: '/web/pages/',
      build: {
        outDir: out('pages'),
        emptyOutDir: true,
        sourcemap: true,
        target: 'es2022',
        rollupOptions: { input: { admin: resolve(root, 'src/admin/index.html'), signup: resolve(root, 'src/signup/index.html') } },
      },
    };
  }
  if (mode === 'hosted') {
    return {
      ...shared,
      root: resolve(root, 'src/hosted'),
      base: '/web/hosted/',
      plugins: [legacy({ targets: ['defaults', 'not IE 11'] })],
      build: { outDir: out('hosted'), emptyOutDir: true, sourcemap: true, target: 'es2020' },
    };
  }
  return {
    ...shared,
    // Relative: a chunk finds its worker and assets next to itself (`new URL(…, import.meta.url)`)
    // wherever `/web/esm/` is served from, also on a customer's page.
    base: './',
    build: {
      target: 'es2021',
      outDir: out('esm'),
      emptyOutDir: true,
      sourcemap: true,
      // Lets bench/widget.ts follow each entry's static imports (its initial load).
      manifest: true,
      lib: {
        entry: {
          verity: resolve(root, 'src/index.ts'),
          'verify-button': resolve(root, 'src/components/verify-button/verify-button.ts'),
          'verify-flow': resolve(root, 'src/components/verify-flow/verify-flow.ts'),
        },
        formats: ['es'],
      },
    },
  };
});
