import { isFreeString, topLevelProperties } from "../../schemas/schema-shapes.js";
import { argumentValue } from "./enum-domains.js";
import { isGrounded, numbersInText, numbersInValue, numericLeaves } from "./grounded-numbers.js";
import { mentions } from "./named-values.js";
import { conversationSubjects } from "./subjects.js";
import { groundingSources, type CallAttempt, type RunState } from "../run-state.js";

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
  readonly numbers: ReadonlyArray<{ readonly value: number; readonly sources: readonly ValueSource[] }>;
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
  const tasks = [...state.earlier.tasks, state.task];
  const subjects = conversationSubjects(state, tool);
  return topLevelProperties(tool.params).flatMap((property) => {
    const value = argumentValue(call.args, property.name);
    if (typeof value !== "string" || value === "") return [];
    const subject = subjects.find((candidate) => candidate.param === property.name);
    if (subject) return subject.domain.includes(value) ? [value] : [];
    return isFreeString(property.schema) && value.length <= SUBJECT_TEXT && tasks.some((task) => mentions(task, value)) ? [value] : [];
  });
}

/** Short texts anywhere in a value (a result's strings), each once. */
function shortTexts(value: unknown, into: Set<string>): Set<string> {
  if (typeof value === "string") {
    if (isShortText(value)) into.add(value.trim());
  } else if (Array.isArray(value)) value.forEach((item) => shortTexts(item, into));
  else if (value !== null && typeof value === "object") Object.values(value).forEach((item) => shortTexts(item, into));
  return into;
}

/**
 * Every grounded value with its sources, the calls read in order so a call
 * inherits the subjects of the numbers it was given. Subject names come
 * from the tools' domains (declared or inferred, with their aliases) and
 * from the free-text subjects calls were given.
 */
export function valueSources(state: RunState): SourceBook {
  const numbers: Array<{ value: number; sources: ValueSource[] }> = [];
  const texts = new Map<string, { text: string; sources: ValueSource[] }>();
  const addNumber = (value: number, source: ValueSource) => {
    const entry = numbers.find((candidate) => isGrounded(value, [candidate.value]));
    if (entry) entry.sources.push(source);
    else numbers.push({ value, sources: [source] });
  };
  const grounding = groundingSources(state);
  for (const task of grounding.tasks) for (const number of numbersInText(task)) addNumber(Math.abs(number), { call: null, subjects: [] });
  const names = new Map<string, string>();
  for (const tool of state.tools) {
    for (const { domain } of conversationSubjects(state, tool)) for (const value of domain) names.set(value.toLowerCase(), value);
    for (const [alias, value] of Object.entries(tool.aliases ?? {})) if (conversationSubjects(state, tool).some(({ domain }) => domain.includes(value))) names.set(alias.toLowerCase(), value);
  }
  const calls: ValueSource[] = [];
  const sourcesOf = (value: number) => numbers.find((candidate) => isGrounded(Math.abs(value), [candidate.value]))?.sources ?? [];
  for (const call of grounding.calls) {
    const given = givenSubjects(state, call).map((subject) => {
      if (!names.has(subject.toLowerCase())) names.set(subject.toLowerCase(), subject);
      return names.get(subject.toLowerCase())!;
    });
    const inherited = numericLeaves(call.args).flatMap((number) => sourcesOf(number).flatMap((source) => source.subjects));
    const source: ValueSource = { call, subjects: [...new Set([...given, ...inherited])] };
    calls.push(source);
    for (const number of new Set(numbersInValue(call.evidence).map(Math.abs))) addNumber(number, source);
    for (const text of shortTexts(call.evidence, new Set())) {
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

/** The sources of a number the answer states (compared unsigned, as the answer's numbers are read). */
export function numberSources(book: SourceBook, value: number): readonly ValueSource[] {
  return book.numbers.find((candidate) => isGrounded(Math.abs(value), [candidate.value]))?.sources ?? [];
}

/** A source as the model is told of it: "CityWeather(Sydney)", "the request". */
export function describeSource(source: ValueSource): string {
  if (!source.call) return "the request";
  return `${source.call.name}(${source.subjects.join(", ")})`;
}

/** Whether a value with these sources may be stated beside `subject`: a source is the task, about no subject, or about that one. */
export function fitsSubject(sources: readonly ValueSource[], subject: string): boolean {
  return sources.length === 0 || sources.some((source) => source.call === null || source.subjects.length === 0 || source.subjects.includes(subject));
}

