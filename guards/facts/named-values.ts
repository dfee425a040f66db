const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const wordPattern = (name: string, flags: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, flags);

/**
 * How much of a text names are looked for in: the first 64 KiB of a task, a
 * result or an answer. A task's subjects are in its words, not in a pasted
 * document past that; and a text's size must not set the cost of every
 * turn's guards (each name of every tool is looked for in it).
 */
export const SCANNED_CHARACTERS = 65_536;

/** A text as names are looked for in it: its scanned part, that part in lower case, and the set of its words (letters and digits). */
interface Scan {
  readonly text: string;
  readonly lower: string;
  readonly words: ReadonlySet<string>;
}

/** The last texts scanned: a turn's guards look in the same few (the task, the answer, a result) for every name of every tool. */
const SCANS = new Map<string, Scan>();
const SCANS_KEPT = 8;

function scanOf(text: string): Scan {
  const known = SCANS.get(text);
  if (known) return known;
  const scanned = text.length > SCANNED_CHARACTERS ? text.slice(0, SCANNED_CHARACTERS) : text;
  const lower = scanned.toLowerCase();
  const scan = { text: scanned, lower, words: new Set(lower.match(/[\p{L}\p{N}]+/gu) ?? []) };
  if (SCANS.size >= SCANS_KEPT) SCANS.delete(SCANS.keys().next().value!);
  SCANS.set(text, scan);
  return scan;
}

/** Whether every word of a name is a word of the scan: a name that fails this is not in the text, whatever the pattern says. */
const mayHold = (scan: Scan, name: string): boolean => (name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).every((word) => scan.words.has(word)) && scan.lower.includes(name.toLowerCase());

/** Whether `name` appears in `text` as a whole word, ignoring case. */
export function mentions(text: string, name: string): boolean {
  if (name === "") return false;
  const scan = scanOf(text);
  return mayHold(scan, name) && wordPattern(name, "iu").test(scan.text);
}

/** Whether `name` appears in `text` as a whole word written exactly so ("US", not "us"). */
export function mentionsExactly(text: string, name: string): boolean {
  if (name === "") return false;
  const scan = scanOf(text);
  return scan.text.includes(name) && wordPattern(name, "u").test(scan.text);
}

/** Where `name` appears in `text` as a whole word, ignoring case: each occurrence's start and end. */
export function mentionSpans(text: string, name: string): Array<{ start: number; end: number }> {
  if (name === "") return [];
  const scan = scanOf(text);
  if (!mayHold(scan, name)) return [];
  return Array.from(scan.text.matchAll(wordPattern(name, "giu")), (match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** The values of `domain` the text names, directly or through an alias ("NYC" → "New York"). */
export function valuesNamedIn(text: string, domain: readonly string[], aliases: Readonly<Record<string, string>> = {}): string[] {
  const named = new Set(domain.filter((value) => mentions(text, value)));
  for (const [alias, value] of Object.entries(aliases)) {
    if (domain.includes(value) && mentions(text, alias)) named.add(value);
  }
  return domain.filter((value) => named.has(value));
}

/** Words a text writes for their own sake, in lower case: English function words and the commonest short ones. */
const FUNCTION_WORDS = new Set(
  ("a an the it its is be am are was us we me my i you he she they them our your his her all any some none one no yes not on off in out up down " +
    "to of for at by as or and but if so do new top hot can may will now then this that what how who why when where here there more most less " +
    "each every both with from into over under about per via like").split(" "),
);

/** Whether a word is a function word ("it", "All", "US"), whatever its case. */
export const isFunctionWord = (word: string): boolean => FUNCTION_WORDS.has(word.toLowerCase());
