/** Edit distance (letters compared without case), for "did you mean". */
function distance(left: string, right: string): number {
  const row = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= right.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (left[i - 1]!.toLowerCase() === right[j - 1]!.toLowerCase() ? 0 : 1));
      diagonal = above;
    }
  }
  return row[right.length]!;
}

/** The known name an unknown one was most likely meant to be, if any is close. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const [best] = [...known].sort((left, right) => distance(name, left) - distance(name, right));
  return best !== undefined && distance(name, best) <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

/** `did you mean "maxTurns"?` when a known name is close, else the known names. */
export function suggestName(name: string, known: readonly string[]): string {
  const closest = closestName(name, known);
  return closest ? `did you mean "${closest}"?` : `known: ${known.join(", ")}`;
}
