import { isFunctionWord, mentionSpans } from "./named-values.js";

/**
 * Which value an answer states beside which subject, read so that a correct
 * answer is never misread: a value is attributed only where the text leaves
 * one reading. Plain code over the text; no model is asked.
 *
 * - Mentions are found first, longest first, so "New York City" is not also
 *   "New York" and "partly sunny" not also "sunny"; a number inside a name
 *   ("Route 66") is part of the name.
 * - The answer is cut into sentences (at ! ? ; and at a full stop that does
 *   not stand between two digits, so 64.4 stays whole; at line breaks: a
 *   list item or a table row is a sentence), never inside a mention.
 * - A sentence that opens with a list of two or more subjects and then a
 *   list of values, or values then subjects ("Paris and New York are 18°C
 *   and 24°C, so New York is warmer"), pairs the lists in order when there
 *   are as many numbers (or texts) as subjects, states nothing of them
 *   otherwise (or where a subject in the list is compared with), and reads
 *   on after them; where every value of one kind comes after the last
 *   subject, as many as the subjects ("Paris (18°C) and New York (24°C):
 *   light rain and sunny"), that kind pairs in order.
 * - Any other sentence is cut into clauses (at ", " and at and / but /
 *   while / whereas). A clause naming one subject states its values about
 *   it; a clause naming none states nothing ("Paris is 18°C, and the other
 *   city is 24°C"), unless it is bare: values and at most two other words
 *   of two letters or more, none a capitalised name it does not know ("light
 *   rain", "at 18°C"; not "NYC 24°C"). A bare clause goes
 *   with its neighbour: the clause before it where the sentence opens with
 *   a subject ("Paris: 18°C, light rain"), the one after where it opens
 *   with a value ("It's 18°C, light rain in Paris"), and at the far end,
 *   the one on the other side ("18°C in Paris, light rain").
 * - A subject after "than", "unlike", "versus", "vs", "compared to/with"
 *   or "relative to" is compared with, not described: it does not own
 *   the clause's values ("New York is 6°C warmer than Paris"), and the
 *   values after it are its own, stated beside no one ("Sydney (21°C) is
 *   warmer than Berlin (16°C)").
 */

export interface StatedValue {
  /** A number, or a text as the source book keys it (lower case). */
  readonly value: number | string;
  /** The subject (its canonical value) the value is stated beside. */
  readonly subject: string;
}

interface Span {
  start: number;
  end: number;
}

type Mention = Span & ({ kind: "subject"; subject: string; reference: boolean } | { kind: "number"; value: number } | { kind: "text"; value: string });
type ValueMention = Extract<Mention, { kind: "number" | "text" }>;

// A full stop ends a sentence unless it stands between two digits (64.4): "New York.24°C" is two, as a small model writes them.
const SENTENCE_BREAK = /[!?;]+|\.+(?!\d)|(?<!\d)\.+|\n+/gu;
const CLAUSE_BREAK = /,\s+|\s+(?:and|but|while|whereas)\s+/giu;
const COMPARED = /(?:\bthan|\bunlike|\bversus|\bvs\.?|\bcompared (?:to|with)|\brelative to)\s+(?:the\s+)?$/iu;
const NUMBER = /\d+(?:\.\d+)?/g;
/** Words beside its values that leave a clause bare. */
const BARE_WORDS = 2;

const overlaps = (span: Span, others: readonly Span[]) => others.some((other) => span.start < other.end && other.start < span.end);

/** Every mention in the text: names and texts longest first, then numbers outside them. */
function mentionsIn(text: string, names: ReadonlyArray<{ written: string; subject: string }>, texts: readonly string[]): Mention[] {
  const candidates = [
    ...names.map((name) => ({ written: name.written, make: (span: Span): Mention => ({ ...span, kind: "subject", subject: name.subject, reference: COMPARED.test(text.slice(Math.max(0, span.start - 20), span.start)) }) })),
    ...texts.map((written) => ({ written, make: (span: Span): Mention => ({ ...span, kind: "text", value: written.toLowerCase() }) })),
  ].sort((left, right) => right.written.length - left.written.length);
  const found: Mention[] = [];
  for (const candidate of candidates) {
    for (const span of mentionSpans(text, candidate.written)) if (!overlaps(span, found)) found.push(candidate.make(span));
  }
  for (const match of text.matchAll(NUMBER)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (!overlaps(span, found)) found.push({ ...span, kind: "number", value: Number(match[0]) });
  }
  return found.sort((left, right) => left.start - right.start);
}

/** Cuts [start, end) at a pattern's matches that fall outside every mention; each piece with the break before it. */
function cut(text: string, start: number, end: number, pattern: RegExp, mentions: readonly Mention[]): Array<Span & { after: string }> {
  const pieces: Array<Span & { after: string }> = [];
  let from = start;
  let after = "";
  for (const match of text.slice(start, end).matchAll(pattern)) {
    const at = { start: start + match.index, end: start + match.index + match[0].length };
    if (overlaps(at, mentions)) continue;
    pieces.push({ start: from, end: at.start, after });
    from = at.end;
    after = match[0];
  }
  pieces.push({ start: from, end, after });
  return pieces;
}

const within = (mentions: readonly Mention[], span: Span) => mentions.filter((mention) => mention.start >= span.start && mention.end <= span.end);
const isValue = (mention: Mention): mention is ValueMention => mention.kind !== "subject";
const describedSubjects = (mentions: readonly Mention[]) => [...new Set(mentions.flatMap((mention) => (mention.kind === "subject" && !mention.reference ? [mention.subject] : [])))];
const stated = (values: readonly ValueMention[], subject: string): StatedValue[] => values.map((mention) => ({ value: mention.value, subject }));

/**
 * A clause of values and at most BARE_WORDS other words, none of them a
 * name a reader would not know ("NYC 24°C", "Manhattan 24°C": a capital
 * that starts no function word).
 */
function isBare(text: string, clause: Span, values: readonly ValueMention[]): boolean {
  if (values.length === 0) return false;
  let rest = text.slice(clause.start, clause.end);
  for (const mention of [...values].reverse()) rest = rest.slice(0, mention.start - clause.start) + " " + rest.slice(mention.end - clause.start);
  // Words of one letter are units and contractions ("°C", "it's"), not content.
  const words = rest.match(/\p{L}{2,}/gu) ?? [];
  return words.length <= BARE_WORDS && !words.some((word) => /^\p{Lu}/u.test(word) && !isFunctionWord(word));
}

/** The mentions a sentence opens with as a parallel list: a run of two or more subjects then a run of values, or values then subjects ("Paris and New York are 18°C and 24°C"); null when it opens otherwise. */
function openingList(mentions: readonly Mention[]): { subjects: Mention[]; values: ValueMention[]; end: number } | null {
  const run = (from: number, subject: boolean) => {
    let to = from;
    while (to < mentions.length && (mentions[to]!.kind === "subject") === subject) to++;
    return mentions.slice(from, to);
  };
  const first = mentions[0];
  if (!first) return null;
  const leading = run(0, first.kind === "subject");
  const following = run(leading.length, first.kind !== "subject");
  const [subjects, values] = first.kind === "subject" ? [leading, following] : [following, leading];
  if (subjects.length < 2 || values.length === 0) return null;
  return { subjects, values: values.filter(isValue), end: Math.max(leading.at(-1)!.end, following.at(-1)!.end) };
}

/** Pairs subjects and values in order, kind by kind, where their counts match. */
function inOrder(subjects: readonly Mention[], values: readonly ValueMention[]): StatedValue[] {
  const named = subjects.flatMap((mention) => (mention.kind === "subject" ? [mention.subject] : []));
  return (["number", "text"] as const).flatMap((kind) => {
    const ofKind = values.filter((mention) => mention.kind === kind);
    return ofKind.length === named.length ? ofKind.map((mention, index) => ({ value: mention.value, subject: named[index]! })) : [];
  });
}

function readSentence(text: string, sentence: Span, all: readonly Mention[]): StatedValue[] {
  const mentions = within(all, sentence);
  if (!mentions.some((mention) => mention.kind === "subject") || !mentions.some(isValue)) return [];
  // A sentence that opens as a parallel list pairs it in order (a list comparing with a subject leaves more than one reading:
  // nothing), and reads on after it.
  const list = openingList(mentions);
  if (list) {
    const paired = list.subjects.some((mention) => mention.kind === "subject" && mention.reference) ? [] : inOrder(list.subjects, list.values);
    return list.end >= sentence.end ? paired : [...paired, ...readSentence(text, { start: list.end, end: sentence.end }, all)];
  }
  // Where every value of one kind comes after the last subject, as many as the subjects ("Paris (18°C) and New York (24°C):
  // light rain and sunny"), that kind closes the sentence as a list and pairs in order; the clauses read the rest.
  const subjects = mentions.filter((mention) => mention.kind === "subject");
  const listed = subjects.length >= 2 && !subjects.some((mention) => mention.kind === "subject" && mention.reference);
  const closed = (["number", "text"] as const)
    .map((kind) => mentions.filter((mention) => mention.kind === kind))
    .filter((ofKind) => listed && ofKind.length === subjects.length && ofKind.every((mention) => mention.start > subjects.at(-1)!.end))
    .flat();
  const pairedAtClose = closed.length > 0 ? inOrder(subjects, closed as ValueMention[]) : [];
  const clauses = cut(text, sentence.start, sentence.end, CLAUSE_BREAK, mentions).map((clause) => {
    const inClause = within(mentions, clause).filter((mention) => !closed.includes(mention));
    const own = describedSubjects(inClause);
    // What follows a subject compared with is that subject's ("Sydney (21°C) is warmer than Berlin (16°C)"): only what comes before it.
    const compared = inClause.find((mention) => mention.kind === "subject" && mention.reference);
    const clauseValues = inClause.filter(isValue).filter((mention) => !compared || mention.end <= compared.start);
    return { values: clauseValues, owner: own.length === 1 ? own[0]! : null, bare: own.length === 0 && isBare(text, clause, clauseValues) };
  });
  // Bare clauses go with the neighbour on the side the sentence's subjects stand; those left at the far end, with the other.
  const subjectFirst = mentions.find((mention) => mention.kind !== "subject" || !mention.reference)?.kind === "subject";
  const forward = subjectFirst ? clauses : [...clauses].reverse();
  for (const order of [forward, [...forward].reverse()]) {
    let carried: string | null = null;
    for (const clause of order) {
      if (clause.owner !== null) carried = clause.owner;
      else if (clause.bare && carried !== null) clause.owner = carried;
      else carried = null;
    }
  }
  return [...pairedAtClose, ...clauses.flatMap((clause) => (clause.owner === null ? [] : stated(clause.values, clause.owner)))];
}

/**
 * The values an answer states beside exactly one subject, each with that
 * subject. `names` are the subject names as an answer may write them (a
 * value, an alias) with the value each stands for; `texts` the short texts
 * whose owner matters (what a result returned: "windy").
 */
export function statedBeside(answer: string, names: ReadonlyArray<{ written: string; subject: string }>, texts: readonly string[]): StatedValue[] {
  const mentions = mentionsIn(answer, names, texts);
  if (!mentions.some((mention) => mention.kind === "subject")) return [];
  return cut(answer, 0, answer.length, SENTENCE_BREAK, mentions).flatMap((sentence) => readSentence(answer, sentence, mentions));
}
