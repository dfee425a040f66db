import { defineGuard, type Decision, type Guard } from "../../guards/guard.js";
import type { ToolChoice } from "./chat-messages.js";

/**
 * OpenAI's `tool_choice` as one more guard, run last (stage "finish", after
 * the built-in guards' views, before any finish): "none" offers FinalAnswer
 * alone, a text reply; "required" hides FinalAnswer, and where the guards
 * had left no tool (all banned, the final forced) offers again every tool
 * the run does not switch off, since the client asked for a call; a named
 * function is the one tool offered. "auto" (or none given) changes nothing.
 * `modelName` is the named function's name as the model writes it.
 */
export function toolChoiceGuard(choice: ToolChoice, modelName: (name: string) => string): Guard | null {
  if (choice === "auto") return null;
  return defineGuard({
    id: "tool_choice",
    title: "the request's tool_choice: none, required, or one named function",
    stage: "finish",
    view(state, view) {
      if (choice === "none") {
        const decisions: Decision[] = view.tools.map((tool) => ({ kind: "hide-tool", tool, reason: "tool_choice is none" }));
        return { view: { ...view, tools: [], final: true, forcedFinal: false }, decisions };
      }
      const decisions: Decision[] = view.final || view.forcedFinal ? [{ kind: "hide-final", reason: `tool_choice is ${typeof choice === "string" ? choice : "a named function"}` }] : [];
      if (choice === "required") {
        const tools = view.tools.length > 0 ? view.tools : state.tools.map((tool) => tool.name).filter((tool) => !state.disabled.includes(tool));
        return { view: { ...view, tools, final: false, forcedFinal: false }, decisions };
      }
      const named = modelName(choice.function.name);
      decisions.push(...view.tools.filter((tool) => tool !== named).map((tool): Decision => ({ kind: "hide-tool", tool, reason: `tool_choice names ${choice.function.name}` })));
      return { view: { ...view, tools: [named], final: false, forcedFinal: false }, decisions };
    },
  });
}
