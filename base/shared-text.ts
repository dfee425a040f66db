/** What two texts share at their beginning and at their end, compared a chunk at a time before character by character. */

/** Characters compared at a time before the one that differs is looked for: a prompt's shared beginning is compared natively, not character by character. */
const CHUNK = 256;

/** How many leading characters two texts share. */
export function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index + CHUNK <= limit && a.slice(index, index + CHUNK) === b.slice(index, index + CHUNK)) index += CHUNK;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** How many trailing characters two texts share. */
export function commonSuffix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index + CHUNK <= limit && a.slice(a.length - index - CHUNK, a.length - index) === b.slice(b.length - index - CHUNK, b.length - index)) index += CHUNK;
  while (index < limit && a.charCodeAt(a.length - 1 - index) === b.charCodeAt(b.length - 1 - index)) index++;
  return index;
}
