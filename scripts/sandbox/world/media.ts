/**
 * Media references in world records. One world is shared by every sandbox of a process, whatever
 * its address, so records hold `sandbox-media:/<kind>/<name>.<ext>` and each answer turns them into
 * signed links on the sandbox that serves it (../media/links.ts); ../media/serve.ts serves them.
 */
export const MEDIA_REF = 'sandbox-media:';

/** p: a post's image (or a video's cover frame), v: a post's video, s: a story, h: a highlight cover. */
type MediaKind = 'p' | 'v' | 's' | 'h' | 'avatars';

export const imageRef = (kind: MediaKind, name: string): string => `${MEDIA_REF}/${kind}/${name}.png`;
export const videoRef = (kind: MediaKind, name: string): string => `${MEDIA_REF}/${kind}/${name}.mp4`;

/** The picture of accounts without one of their own (a fake-follower signal of the audit). */
export const DEFAULT_AVATAR = imageRef('avatars', 'default-avatar');
