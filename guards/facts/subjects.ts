import type { RunState, ToolInfo } from "../run-state.js";
import { stringEnumValues, topLevelProperties } from "../../schemas/schema-shapes.js";
import { mentions, valuesNamedIn } from "./named-values.js";
import { groundingSources } from "../run-state.js";

/** A parameter whose values name what a task is about (a city, a ticker), with its domain; `inferred` when the tool did not declare it. */
export interface SubjectParam {
  readonly param: string;
  readonly domain: readonly string[];
  readonly inferred: boolean;
}

/** A value a reader would call a word: it has a letter or a digit ("+" and "*" are operators, not subjects). */
const isWordLike = (value: string): boolean => /[\p{L}\p{N}]/u.test(value);

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
export function subjectDomains(tool: ToolInfo, tasks: readonly string[], infer: boolean): SubjectParam[] {
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
    return domain && domain.length >= 2 && domain.every(isWordLike) ? [{ param: property.name, domain }] : [];
  });
  const roles = new Set(enumerable.filter((candidate) => enumerable.some((other) => other !== candidate && other.domain.some((value) => candidate.domain.includes(value)))).map((candidate) => candidate.param));
  return enumerable
    .filter((candidate) => !roles.has(candidate.param) && tasks.some((task) => valuesNamedIn(task, candidate.domain, tool.aliases).length > 0))
    .map((candidate) => ({ ...candidate, inferred: true }));
}

/** A tool's subject parameters for the task at hand (what G1 narrows, what the answer must cover). */
export function taskSubjects(state: Pick<RunState, "task" | "inferSubjects">, tool: ToolInfo): SubjectParam[] {
  return subjectDomains(tool, [state.task], state.inferSubjects);
}

/** A tool's subject parameters for the whole conversation: every task's (what names and numbers are sourced by). */
export function conversationSubjects(state: Pick<RunState, "task" | "earlier" | "inferSubjects">, tool: ToolInfo): SubjectParam[] {
  return subjectDomains(tool, [...state.earlier.tasks, state.task], state.inferSubjects);
}

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
  const fromTask = new Set(state.tools.flatMap((tool) => conversationSubjects(state, tool).flatMap(({ domain }) => sources.tasks.flatMap((task) => valuesNamedIn(task, domain, tool.aliases)))));
  const shown = sources.calls.map((call) => JSON.stringify(call.evidence) ?? "");
  return names.filter((name) => fromTask.has(name) || shown.some((text) => mentions(text, name)));
}

/** Known names the text states that nothing grounds, in the order of the tools' domains. */
export function ungroundedNamesIn(state: RunState, text: string): string[] {
  const grounded = new Set(groundedNames(state));
  return knownNames(state).filter((name) => !grounded.has(name) && mentions(text, name));
}
