// Lint rules for the whole repository: typescript-eslint everywhere, plus the Lit, web-component
// and Lit accessibility rules for the browser code (house-style.md asks for zero warnings).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import litA11y from 'eslint-plugin-lit-a11y';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'data/', 'public/vendor/', 'coverage/', '.wtr-tmp/', 'test/.fixtures-cache/', 'custom-elements.json'],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-console': 'off',
      // noUncheckedIndexedAccess is on, so a checked index read is asserted with '!'; tsc catches the rest.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'test/src/**/*.ts', 'demo/**/*.{ts,js}', 'bench/widget-page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    ...lit.configs['flat/recommended'],
  },
  { files: ['src/**/*.ts'], ...wc.configs['flat/recommended'] },
  { files: ['src/**/*.ts'], ...litA11y.configs.recommended },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // chai's property assertions (`expect(x).to.exist`) are expressions by design.
    files: ['test/src/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
