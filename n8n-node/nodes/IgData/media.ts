/**
 * Media as n8n binary data, the option side: which fields of an answer link to media (`image_url`,
 * `video_url`, `profile_pic_url`, `cover_image_url`, and the same names nested, e.g.
 * `author.profile_pic_url`), what the Download Media and Media Size Limit options offer and mean,
 * and which binary property each medium goes to. Downloading them is media-download.ts's (the
 * items) and media-fetch.ts's (one medium).
 *
 * - Which fields link to media is the registry's: the response schemas mark them (core's
 *   mediaFieldPaths). Only those fields of the endpoint are downloaded: any other field named by
 *   an expression (an account's `external_url`, a link its owner chose) is refused before anything
 *   is sent, with the allowed ones named.
 * - One binary property per medium, named after its field without `_url`, dots as underscores:
 *   `image`, `video`, `profile_pic`, `cover_image`, `author_profile_pic`.
 */
import type { INodePropertyOptions } from 'n8n-workflow';
import type { EndpointDef } from '@igdata/core';
import { mediaFieldPaths } from '@igdata/core';

/** What users call a medium, by the last part of its field path (a new media field shows its own name). */
const MEDIA_NAMES: Record<string, string> = {
  image_url: 'Image',
  video_url: 'Video',
  profile_pic_url: 'Profile Picture',
  cover_image_url: 'Cover Image',
};

export const DEFAULT_MEDIA_MAX_MB = 25;
export const DEFAULT_MEDIA_SECONDS = 60;

/** The fields of an endpoint's answers that link to media, as dotted paths (`author.profile_pic_url`). */
export function mediaPaths(endpoint: EndpointDef): string[] {
  return mediaFieldPaths(endpoint.schema);
}

/**
 * Download Media's value for an endpoint: the fields to download (its media fields only) and, when
 * the value names others (an expression can name any field, e.g. an account's `external_url`),
 * the sentence refusing them, naming the allowed ones.
 */
export function mediaSelection(
  value: unknown,
  endpoint: EndpointDef & { operation?: string; resource?: string },
): { fields: string[]; refused?: string } {
  const allowed = mediaPaths(endpoint);
  const named = mediaFields(value);
  const fields = named.filter((f) => allowed.includes(f));
  const other = named.filter((f) => !allowed.includes(f));
  if (!other.length) return { fields };
  const which = other.map((f) => `"${f}"`).join(', ');
  const op =
    endpoint.operation && endpoint.resource
      ? `${endpoint.resource} › ${endpoint.operation} (${endpoint.id})`
      : endpoint.id;
  const choose = allowed.length ? `Its media fields: ${allowed.join(', ')}.` : 'Its answers have no media fields.';
  const plural = other.length > 1;
  return {
    fields,
    refused:
      `Download Media: ${which} ${plural ? 'are not media links' : 'is not a media link'} of ${op}, ` +
      `so ${plural ? 'they were' : 'it was'} not downloaded (only media links are). ${choose}`,
  };
}

/** The binary property a medium goes to: its path without `_url`, dots as underscores. */
export const binaryName = (path: string): string => path.replace(/_url$/, '').replace(/\./g, '_');

/** The choices of the Download Media option for these endpoints: one per media field, with where it appears. */
export function mediaChoices(
  list: readonly (EndpointDef & { operation?: string; resource?: string })[],
): INodePropertyOptions[] {
  const where = new Map<string, string[]>();
  for (const e of list) {
    for (const path of mediaPaths(e))
      where.set(path, [
        ...(where.get(path) ?? []),
        e.operation && e.resource ? `${e.resource} › ${e.operation}` : e.id,
      ]);
  }
  return [...where.entries()]
    .map(([path, ops]) => {
      const parts = path.split('.');
      const last = parts.pop() as string;
      const name = `${MEDIA_NAMES[last] ?? last}${parts.length ? ` of ${parts.join('.')}` : ''} (${path})`;
      return { name, value: path, description: `Into binary property "${binaryName(path)}". In: ${ops.join(', ')}.` };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface MediaOptions {
  /** Media field paths to download (the Download Media option, the endpoint's media fields only). */
  fields: string[];
  /** The sentence refusing the other fields the option named, said on each item. */
  refused?: string;
  /** Largest medium downloaded, in bytes. */
  maxBytes: number;
  /** The longest one download may take, redirects and body included, in milliseconds. */
  deadlineMs: number;
  /** Options > Media From Any Host (address.ts). */
  anyHost: boolean;
  /** Downloads in flight at once. */
  concurrency: number;
}

/**
 * The Download Media option's value as a list of fields (an expression may give one name or a comma-separated text).
 */
export function mediaFields(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return list.map((v) => String(v).trim()).filter(Boolean);
}

/** The size limit in bytes from the option's megabytes (absent or not a positive number: the default). */
export function maxBytesOf(megabytes: unknown): number {
  const n = Number(megabytes);
  return Math.floor((Number.isFinite(n) && n > 0 ? n : DEFAULT_MEDIA_MAX_MB) * 1048576);
}

/** The limits of the options (Media Size Limit, Media Time Limit, Media From Any Host) as MediaOptions has them. */
export function mediaLimitsOf(options: {
  mediaMaxSize?: unknown;
  mediaTimeLimit?: unknown;
  mediaAnyHost?: unknown;
}): Pick<MediaOptions, 'maxBytes' | 'deadlineMs' | 'anyHost'> {
  const seconds = Number(options.mediaTimeLimit);
  return {
    maxBytes: maxBytesOf(options.mediaMaxSize),
    deadlineMs: Math.round((Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_MEDIA_SECONDS) * 1000),
    anyHost: options.mediaAnyHost === true,
  };
}
