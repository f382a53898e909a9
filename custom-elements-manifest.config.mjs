// Custom elements manifest of the public elements (`npm run build:web` → dist/web/custom-elements.json).
export default {
  globs: ['src/components/**/*.component.ts'],
  exclude: ['src/**/*.styles.ts'],
  outdir: 'dist/web',
  litelement: true,
};
