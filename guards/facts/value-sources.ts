import { isFreeString, topLevelProperties } from "../../schemas/schema-shapes.js";
import { argumentValue } from "./enum-domains.js";
import { numbersInText, numericLeaves } from "./grounded-numbers.js";
import { mentions } from "./named-values.js";
import { perState } from "./per-state.js";
import { conversationSubjects } from "./subjects.js";
import { conversationTasks, groundingSources, type CallAttempt, type RunState } from "../run-state.js";

/**
 * Where a grounded value came from: the task (`call` null), or a
 * successful call and the subjects it was about. A call is about the
 * subject values it was given (Paris, for CityWeather(Paris)), and about
 * those of every call whose numbers it took (a ConvertTemperature of
 * Paris's 18 is Paris's too; a Calculator of Paris's 18 and New York's 24
 * is both cities').
 */
export interface ValueSource {
  readonly call: CallAttempt | null;
  readonly subjects: readonly string[];
}

/** What the answer may state and where each came from: numbers, short texts a result returned, and every subject name the conversation knows. */
export interface SourceBook {
  /** Every grounded number, unsigned, by its canonical key (numberKey). */
  readonly numbers: ReadonlyMap<string, { readonly value: number; readonly sources: readonly ValueSource[] }>;
  /** Short texts a result returned (a condition: "windy"), by their lower-case form. */
  readonly texts: ReadonlyMap<string, { readonly text: string; readonly sources: readonly ValueSource[] }>;
  /** Subject names as an answer may write them (a value, an alias), each with the value it stands for. */
  readonly names: ReadonlyArray<{ readonly written: string; readonly subject: string }>;
  /** Each successful call as a source, in order. */
  readonly calls: readonly ValueSource[];
}

/** The longest free-text argument read as a subject (a city, a ticker); longer ones are queries, not names. */
const SUBJECT_TEXT = 40;
/** A result's text read as a fact about its subject: one to four words, at most 32 characters, with a letter. */
const isShortText = (text: string): boolean => text.length >= 3 && text.length <= 32 && /\p{L}/u.test(text) && text.trim().split(/\s+/).length <= 4;

/**
 * The subject values a call was given: the arguments of its subject
 * parameters (declared or inferred), and a free-text argument (no
 * enumeration) that a task names, such as an MCP tool's `city: string`.
 */
function givenSubjects(state: RunState, call: CallAttempt): string[] {
  const tool = state.tools.find((candidate) => candidate.name === call.name);
  if (!tool) return [];
  const tasks = conversationTasks(state);
  const subjects = conversationSubjects(state, tool);
  return topLevelProperties(tool.params).flatMap((property) => {
    const value = argumentValue(call.args, property.name);
    if (typeof value !== "string" || value === "") return [];
    const subject = subjects.find((candidate) => candidate.param === property.name);
    if (subject) return subject.domain.includes(value) ? [value] : [];
    return isFreeString(property.schema) && value.length <= SUBJECT_TEXT && tasks.some((task) => mentions(task, value)) ? [value] : [];
  });
}

/** A result's leaves (finite numbers and texts), each with the property name that holds it (null at the top or in a top-level array). */
export function resultLeaves(value: unknown, key: string | null = null, into: Array<{ key: string | null; value: number | string }> = []): Array<{ key: string | null; value: number | string }> {
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "string") into.push({ key, value });
  else if (Array.isArray(value)) value.forEach((item) => resultLeaves(item, key, into));
  else if (value !== null && typeof value === "object") Object.entries(value).forEach(([name, item]) => resultLeaves(item, name, into));
  return into;
}

/** Short texts among a result's leaves, each once. */
const shortTexts = (leaves: ReturnType<typeof resultLeaves>): Set<string> =>
  new Set(leaves.flatMap(({ value }) => (typeof value === "string" && isShortText(value) ? [value.trim()] : [])));

/**
 * Every grounded value with its sources, the calls read in order so a call
 * inherits the subjects of the numbers it was given. Subject names come
 * from the tools' domains (declared or inferred, with their aliases) and
 * from the free-text subjects calls were given.
 */
export const valueSources = perState(readSources);

function readSources(state: RunState): SourceBook {
  const numbers = new Map<string, { value: number; sources: ValueSource[] }>();
  const texts = new Map<string, { text: string; sources: ValueSource[] }>();
  const addNumber = (value: number, source: ValueSource) => {
    const key = numberKey(value);
    const entry = numbers.get(key);
    if (entry) entry.sources.push(source);
    else numbers.set(key, { value: Math.abs(value), sources: [source] });
  };
  const grounding = groundingSources(state);
  for (const task of grounding.tasks) for (const number of numbersInText(task)) addNumber(Math.abs(number), { call: null, subjects: [] });
  const names = new Map<string, string>();
  for (const tool of state.tools) {
    for (const { domain } of conversationSubjects(state, tool)) for (const value of domain) names.set(value.toLowerCase(), value);
    for (const [alias, value] of Object.entries(tool.aliases ?? {})) if (conversationSubjects(state, tool).some(({ domain }) => domain.includes(value))) names.set(alias.toLowerCase(), value);
  }
  const calls: ValueSource[] = [];
  const sourcesOf = (value: number) => numbers.get(numberKey(value))?.sources ?? [];
  for (const call of grounding.calls) {
    const given = givenSubjects(state, call).map((subject) => {
      if (!names.has(subject.toLowerCase())) names.set(subject.toLowerCase(), subject);
      return names.get(subject.toLowerCase())!;
    });
    // A call given no subject of its own is about those of the numbers it took, unless the task states a number too (then it
    // may be the task's); a call given its own is about those alone (`days: 3` does not make Paris's forecast New York's).
    const inherited =
      given.length > 0 ? [] : numericLeaves(call.args).flatMap((number) => (sourcesOf(number).some((source) => source.call === null) ? [] : sourcesOf(number).flatMap((source) => source.subjects)));
    const source: ValueSource = { call, subjects: [...new Set([...given, ...inherited])] };
    calls.push(source);
    const leaves = resultLeaves(call.evidence);
    for (const number of sourcedNumbers(leaves)) addNumber(number, source);
    for (const text of shortTexts(leaves)) {
      const key = text.toLowerCase();
      if (names.has(key) || grounding.tasks.some((task) => mentions(task, text))) continue;
      const entry = texts.get(key) ?? { text, sources: [] };
      entry.sources.push(source);
      texts.set(key, entry);
    }
  }
  // A text that is also a subject's name is a name, whichever call returned it first.
  for (const key of names.keys()) texts.delete(key);
  return { numbers, texts, names: [...names].map(([written, subject]) => ({ written, subject })), calls };
}

/** A number's key in a source book: unsigned (as an answer's numbers are read), to 12 significant digits (25 and 25.0, 0.1+0.2 and 0.3). */
export const numberKey = (value: number): string => String(Number(Math.abs(value).toPrecision(12)));

/** The sources of a number the answer states. */
export function numberSources(book: SourceBook, value: number): readonly ValueSource[] {
  return book.numbers.get(numberKey(value))?.sources ?? [];
}

/** A date or a time inside a text ("2024-05-18T10:00", "10:30"): its digits are not a fact of the result's subject. */
const DATE_OR_TIME = /\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?|\b\d{1,2}:\d{2}(?::\d{2})?\b/g;

/** The numbers a result states as facts: its numeric leaves, and the numbers its texts write outside dates and times. */
const sourcedNumbers = (leaves: ReturnType<typeof resultLeaves>): Set<number> =>
  new Set(leaves.flatMap(({ value }) => (typeof value === "number" ? [Math.abs(value)] : numbersInText(value.replace(DATE_OR_TIME, " ")))));

/** A source as the model is told of it: "CityWeather(Sydney)", "the request". */
export function describeSource(source: ValueSource): string {
  if (!source.call) return "the request";
  return `${source.call.name}(${source.subjects.join(", ")})`;
}

/** Whether a value with these sources may be stated beside any subject: it has none, or one is the task or a call about no subject. */
export function fitsEverySubject(sources: readonly ValueSource[]): boolean {
  return sources.length === 0 || sources.some((source) => source.call === null || source.subjects.length === 0);
}

/** Whether a value with these sources may be stated beside `subject`: a source is the task, about no subject, or about that one. */
export function fitsSubject(sources: readonly ValueSource[], subject: string): boolean {
  return fitsEverySubject(sources) || sources.some((source) => source.subjects.includes(subject));
}

