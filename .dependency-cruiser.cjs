/**
 * Layers without circles: `npm run lint:cycles` (part of `npm test`) runs dependency-cruiser over
 * core/src, sheets-addon/src and n8n-node/nodes with these rules. test/layers.test.ts plants a
 * circle in a copy of each tree and expects this to fail.
 *
 * Type-only imports count (`tsPreCompilationDeps`): a circle of `import type` compiles away, but it
 * still means two modules are one layer, which is what this guards against.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules importing each other, directly or through others (type-only imports included). Move the shared types down into the leaf (types.ts).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'types-are-leaves',
      severity: 'error',
      comment: 'A types.ts is the bottom layer of its folder: plain types, importing only other types.ts files (packages are not looked at).',
      from: { path: '(^|/)types\\.ts$' },
      to: { path: '^(core|sheets-addon|n8n-node)/', pathNot: '(^|/)types\\.ts$' },
    },
  ],
  options: {
    // Keep `import type` edges, which the TypeScript compiler would elide.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)node_modules/' },
  },
};
