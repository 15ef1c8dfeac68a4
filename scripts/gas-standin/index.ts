/** The Apps Script stand-in's entry for plain Node scripts (load.mjs): one execution at a time, or several at once. */
export * from './runtime';
export * from './concurrent/pool';
