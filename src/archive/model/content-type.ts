/**
 * Media types as the archive keeps and serves them: `type/subtype` in lower case, nothing else. A value
 * from an export or the platform that is no media type (blanks, line breaks, parameters, anything a header
 * cannot carry) is kept as unknown, so it can neither break nor inject into the `Content-Type` of an answer.
 */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The media type of a value, or null when it is none (parameters after `;` are dropped). */
export function mediaTypeOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const essence = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPE.test(essence) ? essence : null;
}
