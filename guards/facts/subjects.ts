import type { RunState, ToolInfo } from "../run-state.js";
import { stringEnumValues, topLevelProperties } from "../../schemas/schema-shapes.js";
import { mentions, valuesNamedIn } from "./named-values.js";
import { groundingSources } from "../run-state.js";

/** A tool's subject parameters (see `subjects` on defineTool) with their domains. */
export function subjectDomains(tool: ToolInfo): Array<{ param: string; domain: string[] }> {
  const subjects = new Set(tool.subjects ?? []);
  return topLevelProperties(tool.params).flatMap((property) => {
    const domain = subjects.has(property.name) ? stringEnumValues(property.schema) : null;
    return domain ? [{ param: property.name, domain }] : [];
  });
}

/** Every name the tools know: the values of every subject parameter, each once. */
function knownNames(state: Pick<RunState, "tools">): string[] {
  return [...new Set(state.tools.flatMap((tool) => subjectDomains(tool).flatMap(({ domain }) => domain)))];
}

/**
 * Names an answer may state: those the task names (directly or through an
 * alias a tool declares) and those in what a successful call returned and the
 * model was shown.
 */
export function groundedNames(state: RunState): string[] {
  const names = knownNames(state);
  const sources = groundingSources(state);
  const fromTask = new Set(state.tools.flatMap((tool) => subjectDomains(tool).flatMap(({ domain }) => sources.tasks.flatMap((task) => valuesNamedIn(task, domain, tool.aliases)))));
  const shown = sources.calls.map((call) => JSON.stringify(call.evidence) ?? "");
  return names.filter((name) => fromTask.has(name) || shown.some((text) => mentions(text, name)));
}

/** Known names the text states that nothing grounds, in the order of the tools' domains. */
export function ungroundedNamesIn(state: RunState, text: string): string[] {
  const grounded = new Set(groundedNames(state));
  return knownNames(state).filter((name) => !grounded.has(name) && mentions(text, name));
}
