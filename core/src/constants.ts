/**
 * The production base address. The spec does not fix it, so it lives here once and every user can
 * override it (sidebar setting, n8n credential field). A file of its own so that importing it
 * (the n8n credential does) does not pull in the registry and its schemas.
 */
export const DEFAULT_BASE_URL = 'https://api.igdata.dev';

/**
 * Where users sign up (50 free credits, no card) and create or revoke API keys. The spec says only
 * "a dashboard"; this is the site of the API's own domain (api.igdata.dev). One constant, so the
 * n8n credential, the sidebar and the docs name the same place.
 */
export const DASHBOARD_URL = 'https://igdata.dev';
