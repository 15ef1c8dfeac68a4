/**
 * The local servers' border for plain Node scripts: the gate and IGDATA_LISTEN, bundled to
 * dist/border.mjs (scripts/build/sandbox.mjs) for the Sheets preview, which is not TypeScript.
 * The sandbox imports gate.ts and listen.ts themselves.
 */
export { guard, readBody } from './gate';
export { LISTEN_ENV, listenOf, listenWarning, isWildcard } from './listen';
