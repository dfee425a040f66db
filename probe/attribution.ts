/**
 * Reading an answer the way a strict reader would: which value is said about
 * which subject, which names it invents, and which pieces of names it leaves
 * lying around. Plain code over the text; no model is asked.
 *
 * An answer is cut into sentences (at . ! ? ; before a space or the end, so
 * 64.4 stays whole) and clauses (at ", " and at and / but / while / whereas /
 * vs). A value belongs to the subject named nearest to it in its clause, or,
 * when the clause names none, to the last subject named earlier in the
 * sentence; when the whole answer names no subject and the facts are about
 * one, it belongs to that one.
 */

/** An expected fact: a bare value anywhere in the answer, or a value said about a subject (any of its names). */
export type Fact = string | number | { about: string | readonly string[]; is: string | number };

export interface AnswerReading {
  /** Per fact, whether the answer states it (about its own subject, where it has one). */
  stated: boolean[];
  /** Values of a fact said about another subject that has no such fact. */
  misattributed: number;
  /** Known names the answer states that neither the task nor a successful tool result names. */
  ungroundedNames: string[];
  /** Words that are pieces of a known name: "New" without "York", "verlin" for Berlin. */
  fragments: string[];
}

export interface ReadingContext {
  /** Every name the tools know, canonical, with the other names users write for it. */
  names: ReadonlyArray<{ name: string; aliases: readonly string[] }>;
  /** The task and what the successful calls returned, as text: what grounds a name. */
  grounding: string;
}

interface Span {
  start: number;
  end: number;
}
interface Mention extends Span {
  subject: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const wordPattern = (name: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, "giu");
const spansOf = (text: string, name: string): Span[] => Array.from(text.matchAll(wordPattern(name)), (match) => ({ start: match.index, end: match.index + match[0].length }));
const canonical = (about: string | readonly string[]) => (typeof about === "string" ? [about] : [...about]);

/** Subject mentions, longest names first so "New York City" is not also "New York". */
function mentionsIn(text: string, subjects: ReadonlyArray<{ name: string; aliases: readonly string[] }>): Mention[] {
  const candidates = subjects.flatMap(({ name, aliases }) => [name, ...aliases].map((written) => ({ written, subject: name }))).sort((left, right) => right.written.length - left.written.length);
  const found: Mention[] = [];
  for (const { written, subject } of candidates) {
    for (const span of spansOf(text, written)) if (!found.some((other) => span.start < other.end && other.start < span.end)) found.push({ ...span, subject });
  }
  return found.sort((left, right) => left.start - right.start);
}

function valueSpans(text: string, value: string | number): Span[] {
  if (typeof value === "string") return spansOf(text, value);
  return Array.from(text.matchAll(/\d+(?:\.\d+)?/g), (match) => ({ start: match.index, end: match.index + match[0].length, value: Number(match[0]) }))
    .filter((span) => Math.abs(span.value - Math.abs(value)) <= 1e-9 * Math.max(1, Math.abs(value)));
}

const CLAUSE_BREAK = /,\s+|\s+(?:and|but|while|whereas|vs\.?|versus)\s+/giu;
const SENTENCE_BREAK = /[.!?;]+(?=\s|$)|\n+/gu;

/** Cuts text at a pattern, keeping each piece's offset. */
function cut(text: string, offset: number, pattern: RegExp): Array<{ text: string; offset: number }> {
  const pieces: Array<{ text: string; offset: number }> = [];
  let start = 0;
  for (const match of text.matchAll(pattern)) {
    pieces.push({ text: text.slice(start, match.index), offset: offset + start });
    start = match.index + match[0].length;
  }
  pieces.push({ text: text.slice(start), offset: offset + start });
  return pieces;
}

/** For every occurrence of a value, the subject it is said about (null: none). */
function attribute(answer: string, value: string | number, subjects: ReadingContext["names"], soleSubject: string | null): Array<string | null> {
  const owners: Array<string | null> = [];
  const anyMention = mentionsIn(answer, subjects).length > 0;
  for (const sentence of cut(answer, 0, SENTENCE_BREAK)) {
    let last: string | null = null;
    for (const clause of cut(sentence.text, sentence.offset, CLAUSE_BREAK)) {
      const mentions = mentionsIn(clause.text, subjects);
      for (const span of valueSpans(clause.text, value)) {
        const nearest = mentions
          .map((mention) => ({ mention, distance: mention.start >= span.end ? mention.start - span.end : span.start - mention.end }))
          .sort((left, right) => left.distance - right.distance)[0];
        owners.push(nearest?.mention.subject ?? last ?? (anyMention ? null : soleSubject));
      }
      if (mentions.length > 0) last = mentions.at(-1)!.subject;
    }
  }
  return owners;
}

export function readAnswer(answer: string, facts: readonly Fact[], context: ReadingContext): AnswerReading {
  const about = facts.flatMap((fact) => (typeof fact === "object" ? [canonical(fact.about)] : []));
  // The facts' subjects, with their other names, join the known names.
  const subjects = [...context.names];
  for (const names of about) if (!subjects.some((known) => known.name === names[0])) subjects.push({ name: names[0]!, aliases: names.slice(1) });
  const distinct = [...new Set(about.map((names) => names[0]!))];
  const sole = distinct.length === 1 ? distinct[0]! : null;

  const stated = facts.map((fact) => {
    if (typeof fact !== "object") return valueSpans(answer, fact).length > 0;
    return attribute(answer, fact.is, subjects, sole).includes(canonical(fact.about)[0]!);
  });
  let misattributed = 0;
  for (const fact of facts) {
    if (typeof fact !== "object") continue;
    const own = canonical(fact.about)[0]!;
    for (const owner of attribute(answer, fact.is, subjects, sole)) {
      if (owner === null || owner === own) continue;
      const ownerHasIt = facts.some((other) => typeof other === "object" && canonical(other.about)[0] === owner && other.is === fact.is);
      if (!ownerHasIt) misattributed++;
    }
  }

  const named = [...new Set(mentionsIn(answer, context.names).map((mention) => mention.subject))];
  const expectedNames = new Set(facts.filter((fact): fact is string => typeof fact === "string"));
  const grounded = (name: string) => [name, ...(context.names.find((known) => known.name === name)?.aliases ?? [])].some((written) => spansOf(context.grounding, written).length > 0);
  const ungroundedNames = named.filter((name) => !grounded(name) && !expectedNames.has(name));
  return { stated, misattributed, ungroundedNames, fragments: fragmentsIn(answer, context.names) };
}

/** The length of the longest substring two words share, ignoring case. */
function sharedRun(left: string, right: string): number {
  const [a, b] = [left.toLowerCase(), right.toLowerCase()];
  let best = 0;
  for (let i = 0; i < a.length; i++) for (let j = 0; j < b.length; j++) {
    let length = 0;
    while (a[i + length] !== undefined && a[i + length] === b[j + length]) length++;
    best = Math.max(best, length);
  }
  return best;
}

/**
 * Words of the answer, outside whole names, that are pieces of a known name:
 * a capitalised part of a multi-word name without the rest ("New" without
 * "York"), or a word of about a name's length sharing most of it ("verlin",
 * "Humbai"): within two letters of its length, sharing a run of at least
 * max(4, length − 2) letters, so "comparison" is not Paris and "home" not Rome.
 */
function fragmentsIn(answer: string, names: ReadingContext["names"]): string[] {
  const whole = mentionsIn(answer, names);
  const written = names.flatMap(({ name, aliases }) => [name, ...aliases]);
  const multiWordParts = new Set(written.filter((name) => name.includes(" ")).flatMap((name) => name.split(" ")));
  const single = written.filter((name) => !name.includes(" "));
  const fragments: string[] = [];
  for (const match of answer.matchAll(/\p{L}+/gu)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (whole.some((mention) => span.start >= mention.start && span.end <= mention.end)) continue;
    const word = match[0];
    const piece = single.some((name) => Math.abs(word.length - name.length) <= 2 && sharedRun(word, name) >= Math.max(4, name.length - 2));
    if (multiWordParts.has(word) || piece) fragments.push(word);
  }
  return fragments;
}
