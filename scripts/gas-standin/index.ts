/** The Apps Script stand-in's entry for plain Node scripts (load.mjs): one execution at a time, or several at once. */
export * from './runtime';
export * from './concurrent/pool';
// the Sheets preview moves the sandbox's clock before each trigger, synchronously as the trigger runs
export { SyncHttpClient } from './internal/syncHttp';
