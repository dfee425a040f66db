import type { RunState, ToolInfo } from "../run-state.js";
import { stringEnumValues, topLevelProperties } from "../../schemas/schema-shapes.js";
import { isFunctionWord, mentions, mentionsExactly, valuesNamedIn } from "./named-values.js";
import { conversationTasks, groundingSources } from "../run-state.js";
import { perState } from "./per-state.js";

/** A parameter whose values name what a task is about (a city, a ticker), with its domain; `inferred` when the tool did not declare it. */
export interface SubjectParam {
  readonly param: string;
  readonly domain: readonly string[];
  readonly inferred: boolean;
}

/** A value a reader would call a word: it has a letter or a digit ("+" and "*" are operators, not subjects). */
const isWordLike = (value: string): boolean => /[\p{L}\p{N}]/u.test(value);

/**
 * The values of a subject's domain a text names (see valuesNamedIn): for
 * an inferred subject, a value that is a function word ("it" among
 * language codes, "all" among issue states, "us" among country codes)
 * counts only through an alias or written in the domain's own capitals
 * ("US"), never in lower case ("say it politely", "list all open issues").
 */
export function namedIn(text: string, subject: Pick<SubjectParam, "domain" | "inferred">, aliases: Readonly<Record<string, string>> = {}): string[] {
  const named = valuesNamedIn(text, subject.domain, aliases);
  if (!subject.inferred) return named;
  const byAlias = new Set(Object.entries(aliases).flatMap(([alias, value]) => (subject.domain.includes(value) && mentions(text, alias) ? [value] : [])));
  return named.filter((value) => !isFunctionWord(value) || byAlias.has(value) || (value !== value.toLowerCase() && mentionsExactly(text, value)));
}

/**
 * A tool's subject parameters. Declared ones (`subjects` on defineTool, or
 * `x-narrowgauge` through serve) take precedence: a tool that declares any,
 * or declares `subjects: []`, gets exactly those. Otherwise, with `infer`,
 * they are read off the schema and the tasks: a top-level parameter whose
 * domain is an enumeration of two or more word-like strings (an `enum`, a
 * union of `const`s: zod's `z.enum`, TypeBox literals), of which a task
 * names at least one (whole words, ignoring case, or through the tool's
 * `aliases`). Two parameters of one tool whose domains share a value are
 * roles, not subjects (`from` and `to` of a conversion: "…to Celsius"
 * names where a conversion goes, and its source is some other value), so
 * neither is inferred.
 */
export function subjectDomains(tool: ToolInfo, tasks: readonly string[], infer: boolean): readonly SubjectParam[] {
  const properties = topLevelProperties(tool.params);
  if (tool.subjects !== undefined) {
    const declared = new Set(tool.subjects);
    return properties.flatMap((property) => {
      const domain = declared.has(property.name) ? stringEnumValues(property.schema) : null;
      return domain ? [{ param: property.name, domain, inferred: false }] : [];
    });
  }
  if (!infer) return [];
  const enumerable = properties.flatMap((property) => {
    const domain = stringEnumValues(property.schema);
    return domain && domain.length >= 2 && domain.every(isWordLike) ? [{ param: property.name, domain, inferred: true }] : [];
  });
  // Roles share values: which parameters hold each value, in one pass over the domains.
  const holders = new Map<string, Set<string>>();
  for (const candidate of enumerable) for (const value of candidate.domain) holders.set(value, (holders.get(value) ?? new Set()).add(candidate.param));
  const roles = new Set([...holders.values()].filter((params) => params.size > 1).flatMap((params) => [...params]));
  return enumerable.filter((candidate) => !roles.has(candidate.param) && tasks.some((task) => namedIn(task, candidate, tool.aliases).length > 0));
}

/** Each tool's subject parameters, read once per run state and tool (several guards ask every turn), for the task and for the conversation. */
const SUBJECTS = { task: perState(() => new Map<ToolInfo, readonly SubjectParam[]>()), conversation: perState(() => new Map<ToolInfo, readonly SubjectParam[]>()) };

/** A tool's subject parameters for the task at hand (what G1 narrows, what the answer must cover). */
export function taskSubjects(state: RunState, tool: ToolInfo): readonly SubjectParam[] {
  const read = SUBJECTS.task(state);
  if (!read.has(tool)) read.set(tool, Object.freeze(subjectDomains(tool, [state.task], state.inferSubjects)));
  return read.get(tool)!;
}

/** A tool's subject parameters for the whole conversation: every task's (what names and numbers are sourced by). */
export function conversationSubjects(state: RunState, tool: ToolInfo): readonly SubjectParam[] {
  const read = SUBJECTS.conversation(state);
  if (!read.has(tool)) read.set(tool, Object.freeze(subjectDomains(tool, conversationTasks(state), state.inferSubjects)));
  return read.get(tool)!;
}

/** The property names that hold a subject: every tool's subject parameters, each once. */
export const subjectFields = perState((state): string[] => [...new Set(state.tools.flatMap((tool) => conversationSubjects(state, tool).map((subject) => subject.param)))]);

/** The subject values any task of the conversation names, each once. */
export const subjectsNamed = perState((state): string[] => [
  ...new Set(state.tools.flatMap((tool) => conversationSubjects(state, tool).flatMap((subject) => conversationTasks(state).flatMap((task) => namedIn(task, subject, tool.aliases))))),
]);

/** Every name the tools know: the values of every subject parameter, each once. */
function knownNames(state: RunState): string[] {
  return [...new Set(state.tools.flatMap((tool) => conversationSubjects(state, tool).flatMap(({ domain }) => domain)))];
}

/**
 * Names an answer may state: those the task names (directly or through an
 * alias a tool declares) and those in what a successful call returned and the
 * model was shown.
 */
export function groundedNames(state: RunState): string[] {
  const names = knownNames(state);
  const sources = groundingSources(state);
  const fromTask = new Set(subjectsNamed(state));
  const shown = sources.calls.map((call) => JSON.stringify(call.evidence) ?? "");
  return names.filter((name) => fromTask.has(name) || shown.some((text) => mentions(text, name)));
}

/** Known names the text states that nothing grounds, in the order of the tools' domains. */
export function ungroundedNamesIn(state: RunState, text: string): string[] {
  const grounded = new Set(groundedNames(state));
  return knownNames(state).filter((name) => !grounded.has(name) && mentions(text, name));
}
