/** How many leading tokens two token lists share (at most `limit`): what a KV cache holding `a` keeps for `b`. */
export function commonPrefixLength(a: readonly number[], b: readonly number[], limit = Math.min(a.length, b.length)): number {
  let length = 0;
  while (length < limit && a[length] === b[length]) length++;
  return length;
}
