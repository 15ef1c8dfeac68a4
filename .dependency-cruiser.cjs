/**
 * Layers without circles: `npm run lint:cycles` (part of `npm test`) runs dependency-cruiser over
 * core/src, sheets-addon/src, n8n-node/nodes and the tools in scripts/ with these rules (the rules
 * on types.ts and the add-on's folders concern the products only). test/layers.test.ts plants a
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
      comment:
        'Modules importing each other, directly or through others (type-only imports included). Move the shared types down into the leaf (types.ts).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'types-are-leaves',
      severity: 'error',
      comment:
        'A types.ts is the bottom layer of its folder: plain types, importing only other types.ts files (packages are not looked at).',
      from: { path: '(^|/)types\\.ts$' },
      to: { path: '^(core|sheets-addon|n8n-node)/', pathNot: '(^|/)types\\.ts$' },
    },
    {
      name: 'bench-entry-is-for-benches',
      severity: 'error',
      comment:
        "core/src/bench-entry.ts is core's internal entry for scripts/bench/: products use core through @igdata/core (core/src/index.ts).",
      from: { path: '^(sheets-addon|n8n-node|zapier)/' },
      to: { path: '^core/src/bench-entry\\.ts$' },
    },
    {
      name: 'bulk-internals',
      severity: 'error',
      comment:
        'Outside bulk/, a run is made and stepped through bulk/runs.ts; the step machinery (step.ts, the *-step.ts kinds, unit.ts, append.ts) stays inside. Use runs.ts, or give it what you need.',
      from: { path: '^sheets-addon/src/', pathNot: '^sheets-addon/src/bulk/' },
      to: { path: '^sheets-addon/src/bulk/(step|[a-z]+-step|unit|append)\\.ts$' },
    },
    {
      name: 'owned-runs-are-their-own',
      severity: 'error',
      comment:
        "bulk/control.ts is the sidebar's run (one per document); schedules and trackers make runs of their own with bulk/runs.ts.",
      from: { path: '^sheets-addon/src/(schedule|tracker)/' },
      to: { path: '^sheets-addon/src/bulk/control\\.ts$' },
    },
    {
      name: 'schedules-know-no-owner',
      severity: 'error',
      comment:
        'schedule/ hears from its owners through schedule/owner.ts (hooks passed down from owners.ts): importing an owner would make the two one layer.',
      from: { path: '^sheets-addon/src/schedule/' },
      to: { path: '^sheets-addon/src/', pathNot: '^sheets-addon/src/(schedule|bulk|engine|context)/' },
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
