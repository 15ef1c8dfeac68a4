/** What the add-on does about the service's error codes: facts from core's error table, never message text. */
import { errorFacts } from '@igdata/core';

/** The key itself was refused (401: missing or invalid): the sidebar does not save it. */
export const keyRefused = (code: string | undefined): boolean => code !== undefined && errorFacts(code)?.status === 401;
