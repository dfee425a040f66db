/**
 * `text` as it is when it holds at most `max` code points; otherwise its
 * first `keep` code points (`max` unless given) and then `marker` (a string,
 * or made from how many code points were cut). Cuts between code points,
 * never inside a surrogate pair, so an emoji or a CJK extension character
 * is kept whole or left out.
 */
export function cutText(text: string, max: number, marker: string | ((cut: number) => string), keep = max): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  const kept = Math.max(0, keep);
  return `${points.slice(0, kept).join("")}${typeof marker === "string" ? marker : marker(points.length - kept)}`;
}

/** How many code points `text` holds. */
export const codePoints = (text: string): number => Array.from(text).length;
