// The linter for every TypeScript and JavaScript file (`npm run lint`): typescript-eslint's
// recommended rules, the set n8n's own `n8n-node lint` applies to n8n-node (which keeps that gate
// too), so a rule and a disable comment mean the same everywhere. ESLint is pinned to the version
// of n8n's gate (@n8n/node-cli's): the gate's lint runs the checkout's ESLint with n8n's plugins. Layout is Prettier's
// (.prettierrc.json); the one layout rule here is the line width of product code, which Prettier
// cannot keep for strings and comments.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WIDTH = 120; // .prettierrc.json printWidth

export default tseslint.config(
  // .n8n-data/: the n8n home `npm start` keeps (n8n's own editor bundle in its cache), git-ignored as .cache/ is
  { ignores: ['**/dist/', '**/coverage/', '.cache/', '.n8n-data/', '**/node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore names a value left unused on purpose (a rest sibling, a callback slot).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `ok && run()` and `c ? a() : b()` as statements are a deliberate idiom of the scripts.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // An empty catch is a best-effort step whose failure changes nothing (cleanup, optional probes).
      'no-empty': ['error', { allowEmptyCatch: true }],
      // A dead store hides a misread loop; ESLint 10 recommends this rule.
      'no-useless-assignment': 'error',
    },
  },
  {
    files: ['**/*.ts'],
    // TypeScript reports undefined names itself (typescript-eslint's advice).
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['**/*.cjs', '**/*.js'],
    // CommonJS files load with require by definition.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['scripts/sheets-preview/*.js'],
    // Served to the preview page; __NAMES__ and __CLOCK_OFFSET__ are filled in by the server.
    languageOptions: { globals: { ...globals.browser, __NAMES__: 'readonly', __CLOCK_OFFSET__: 'readonly' } },
  },
  {
    files: ['test/gas-standin/fixtures/**/*.js'],
    // Apps Script project files: their globals are Apps Script's services and the project's other
    // files, and their top-level functions are called by name from outside.
    languageOptions: { sourceType: 'script' },
    rules: { 'no-undef': 'off', '@typescript-eslint/no-unused-vars': ['error', { vars: 'local' }] },
  },
  {
    files: ['scripts/**', 'test/**', 'zapier/test/**'],
    // Tools and tests hold other programs' untyped objects (vm realms, n8n's JSON, page globals);
    // product code keeps the rule.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['core/src/**', 'sheets-addon/src/**', 'n8n-node/nodes/**', 'n8n-node/credentials/**', 'zapier/src/**'],
    rules: { 'max-len': ['error', { code: WIDTH, tabWidth: 2 }] },
  },
);
