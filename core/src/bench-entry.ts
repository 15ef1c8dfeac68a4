/**
 * Core's internal entry for benches (scripts/bench/), beside the public one (index.ts): what a
 * bench reads or swaps that products have no use for. Products never import it (a
 * dependency-cruiser rule says so); a bench that needs more of core's inside adds it here, so what
 * benches depend on is one list.
 */
export * as schemas from './registry/schemas';
export { checkShape, fieldPaths } from './shape';

/**
 * The modules `npm run bench:validators` replaces in a bundle to weigh another validator (paths
 * from the repository's root): the response schemas as data, and the checker that reads them.
 */
export const VALIDATOR_MODULES = { schemas: 'core/src/registry/schemas.ts', checker: 'core/src/shape.ts' } as const;
