/**
 * Google's daily quota of Properties reads and writes (50,000 a day, 500,000 with Google Workspace, per user), met by a
 * read or a write of the properties where the add-on keeps its settings and its runs. The Apps Script border
 * (gas/settings.ts) turns Google's sentence into this error; the entry points (gas/quota-pause.ts) keep the pause
 * somewhere else, since nothing can be read or saved in the properties until the quota frees up.
 */
import { IgQuotaError } from '@igdata/core';

export class PropertiesQuotaError extends Error {
  readonly name = 'PropertiesQuotaError';
  constructor() {
    super(new IgQuotaError('properties').message);
  }
}

export const isPropertiesQuota = (e: unknown): e is PropertiesQuotaError =>
  e instanceof Error && e.name === 'PropertiesQuotaError';
