/**
 * A stable pseudo-random 31-bit number per station identity (FNV-1a): the same station gets the same key on
 * both backends and after a re-import, so an oversized box is cut the same way every time.
 */
export function sampleKey(country: string, externalId: string): number {
  let hash = 0x811c9dc5;
  const text = `${country}\u0000${externalId}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // A final avalanche so that neighbouring ids do not get neighbouring keys.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return (hash >>> 1) & 0x7fffffff;
}
