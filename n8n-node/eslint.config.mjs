// The community-node lint, as `@n8n/node-cli lint` configures it (its dist/configs/eslint.js, minus
// the import-x plugin): eslint recommended + typescript-eslint recommended +
// @n8n/eslint-plugin-community-nodes (recommended, i.e. n8n Cloud rules included) for every .ts
// file, and eslint-plugin-n8n-nodes-base's community / credentials / nodes rule sets.
// Run it with `npm run lint:n8n` (scripts/n8n/lint.mjs installs the tools and calls this with
// a `require` that resolves them).
export default async function makeConfig(require) {
  const js = require('@eslint/js');
  const tseslint = require('typescript-eslint');
  const { n8nCommunityNodesPlugin } = require('@n8n/eslint-plugin-community-nodes');
  const n8nNodesBase = require('eslint-plugin-n8n-nodes-base');
  const community = n8nCommunityNodesPlugin.configs.recommended;
  return tseslint.config(
    { ignores: ['dist/**', 'node_modules/**', 'examples/**', 'eslint.config.mjs'] },
    {
      files: ['**/*.ts'],
      extends: [js.configs.recommended, tseslint.configs.recommended, community],
      rules: { 'prefer-spread': 'off', 'no-console': 'error' },
    },
    { plugins: { 'n8n-nodes-base': n8nNodesBase } },
    {
      files: ['package.json'],
      extends: [community],
      rules: { ...n8nNodesBase.configs.community.rules },
      languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
    },
    {
      files: ['credentials/**/*.ts'],
      rules: {
        ...n8nNodesBase.configs.credentials.rules,
        'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
        'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
      },
    },
    {
      files: ['nodes/**/*.ts'],
      rules: {
        ...n8nNodesBase.configs.nodes.rules,
        'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
        'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
        'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
      },
    },
  );
}
