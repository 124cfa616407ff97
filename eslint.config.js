// ESLint: the recommended JavaScript and typescript-eslint rules, with Prettier owning the layout.
// Not type-aware: linting the whole tree stays a few seconds' job rather than a full type check.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const prettier = require('eslint-config-prettier');

// The Node globals the CommonJS scripts, configs and test fixtures use (`require`, `module` and
// `exports` come from sourceType 'commonjs').
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    '__dirname',
    '__filename',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'URL',
    'URLSearchParams',
    'fetch',
    'AbortController',
    'TextEncoder',
    'TextDecoder',
  ].map((name) => [name, 'readonly']),
);

module.exports = tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'bench/results/', 'bench/peer/', 'studio/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      // Naming a field to leave it out of a rest object, or a parameter only a decorator or a
      // signature needs (`_em`), is how the code says "deliberately unused".
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: nodeGlobals },
    // These files are CommonJS run by plain `node`, where require() is the import.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Studio runs in the browser (studio/src): its globals, not Node's; its Vite config runs in Node.
    files: ['studio/src/**/*.{ts,tsx}'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'sessionStorage',
          'fetch',
          'URL',
          'URLSearchParams',
          'performance',
          'console',
          'setTimeout',
          'clearTimeout',
          'IntersectionObserver',
          'PopStateEvent',
          'HTMLDivElement',
          'WebSocket',
          'navigator',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    files: ['studio/vite.config.mjs'],
    languageOptions: { globals: nodeGlobals },
  },
);
