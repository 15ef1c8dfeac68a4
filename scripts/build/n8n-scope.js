// Injected into every n8n bundle by scripts/build/n8n.mjs, which maps the free name `globalThis`
// to this object. Why: n8n's verification forbids `globalThis` in shipped code (a community node
// must not read or write process-wide state), and the only user is zod, which keeps its config
// (`z.config()`, a schema post-processor) on `globalThis.__zod_globalConfig` so that copies of zod
// in one process share it. Our bundle's copy should not share it: with a private object, zod's
// config is per bundle, so n8n's own zod settings (error maps, compile hooks) never change how our
// response schemas validate, and ours never leak into n8n. We never call z.config(), so zod sees
// the empty config it would see in a fresh process.
export const bundleScope = {};
