/**
 * How well a task's words match each tool, mechanically: Okapi BM25 over
 * each tool's name (its words, counted three times), description, and
 * parameter names and descriptions, with English stop words left out and
 * plurals and -ing/-ed endings folded. A task that names a tool outright
 * (`read_file`, or its words `read file` in that order) puts it first.
 * Pure: the same task and tools rank the same way every time.
 */

/** What the ranking reads of a tool. */
export interface RankedToolInput {
  name: string;
  description: string;
  params: unknown;
}

export interface ToolRelevance {
  name: string;
  /** BM25 score, plus NAMED_BONUS where the task names the tool; 0 when no word matches. */
  score: number;
  /** The task's words (folded) the tool's text holds, best first. */
  matched: string[];
}

/** Added to the score of a tool the task names outright: more than any word match can give. */
export const NAMED_BONUS = 1000;

const NAME_WEIGHT = 3;
const K1 = 1.2;
const B = 0.75;

const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its me my no not of on or our please " +
    "say says she should so some than that the their them then there these they this those to us was we were what when where which who whom why will with would you your"
  ).split(" "),
);

/** One word folded: lower case, plural and -ing/-ed endings off (a light stemmer: `files` and `file`, `listing` and `list` meet). */
export function foldWord(word: string): string {
  let folded = word.toLowerCase();
  if (folded.length > 4 && folded.endsWith("ies")) folded = `${folded.slice(0, -3)}y`;
  else if (folded.length > 4 && /(?:ss|x|ch|sh)es$/.test(folded)) folded = folded.slice(0, -2);
  else if (folded.length > 3 && folded.endsWith("s") && !folded.endsWith("ss") && !folded.endsWith("us")) folded = folded.slice(0, -1);
  if (folded.length > 5 && folded.endsWith("ing")) folded = folded.slice(0, -3);
  else if (folded.length > 4 && folded.endsWith("ed")) folded = folded.slice(0, -2);
  return folded;
}

/** A text's words as the ranking counts them: split at anything not a letter or digit and at camelCase humps, folded, stop words and single characters out. */
export function rankingWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word.toLowerCase()))
    .map(foldWord);
}

/** Parameter names and descriptions, at any depth, as text. */
function paramsText(schema: unknown, into: string[] = [], depth = 0): string[] {
  if (depth > 8 || schema === null || typeof schema !== "object") return into;
  if (Array.isArray(schema)) {
    for (const item of schema) paramsText(item, into, depth + 1);
    return into;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "description" && typeof value === "string") into.push(value);
    else if (key === "properties" && value && typeof value === "object") {
      for (const [name, property] of Object.entries(value)) {
        into.push(name);
        paramsText(property, into, depth + 1);
      }
    } else if (typeof value === "object") paramsText(value, into, depth + 1);
  }
  return into;
}

/**
 * Whether a task names a tool outright: its identifier as a whole word
 * (`read_file`, `getSum`), or the identifier's words in order ("read text
 * file" for `read_text_file`). A one-word name (`echo`) is only a word
 * match: it would be "named" by any task that uses the word.
 */
function namesTool(task: string, taskPhrase: string, name: string): boolean {
  const words = rankingWords(name);
  if (words.length < 2) return false;
  const escaped = name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}_-])${escaped}(?![\\p{L}\\p{N}_-])`, "u").test(task.toLowerCase()) || taskPhrase.includes(` ${words.join(" ")} `);
}

/**
 * The tools, best match for the task first (ties keep the order given),
 * each with its score and the words that matched.
 */
export function rankTools(task: string, tools: readonly RankedToolInput[]): ToolRelevance[] {
  const query = [...new Set(rankingWords(task))];
  const taskPhrase = ` ${rankingWords(task).join(" ")} `;
  const documents = tools.map((tool) => {
    const words = [...Array.from({ length: NAME_WEIGHT }, () => rankingWords(tool.name)).flat(), ...rankingWords(tool.description), ...rankingWords(paramsText(tool.params).join(" "))];
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return { tool, counts, length: words.length };
  });
  const averageLength = documents.reduce((total, document) => total + document.length, 0) / Math.max(1, documents.length) || 1;
  const idf = new Map(query.map((word) => {
    const holding = documents.filter((document) => document.counts.has(word)).length;
    return [word, Math.log(1 + (documents.length - holding + 0.5) / (holding + 0.5))];
  }));
  const ranked = documents.map((document, order) => {
    const contributions = query.flatMap((word) => {
      const frequency = document.counts.get(word) ?? 0;
      if (frequency === 0) return [];
      return [{ word, value: idf.get(word)! * ((frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * document.length) / averageLength))) }];
    });
    const named = namesTool(task, taskPhrase, document.tool.name);
    const score = contributions.reduce((total, part) => total + part.value, 0) + (named ? NAMED_BONUS : 0);
    return { order, relevance: { name: document.tool.name, score, matched: contributions.sort((a, b) => b.value - a.value).map((part) => part.word) } };
  });
  return ranked.sort((a, b) => b.relevance.score - a.relevance.score || a.order - b.order).map((entry) => entry.relevance);
}
