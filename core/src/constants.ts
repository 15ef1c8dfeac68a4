/**
 * The production base address. The spec does not fix it, so it lives here once and every user can
 * override it (sidebar setting, n8n credential field). A file of its own so that importing it
 * (the n8n credential does) does not pull in the registry and its schemas.
 */
export const DEFAULT_BASE_URL = 'https://api.igdata.dev';
