import type { GuardDecision } from "../../guards/guard.js";
import { enumKeyParts } from "../../guards/facts/enum-domains.js";
import { FINAL_ANSWER } from "../../schemas/step-schema.js";
import type { ToolNames } from "../tools/tool-names.js";
import type { RunEvent, TurnRecord } from "./run-types.js";

/**
 * Records and events name tools as the caller named them; only the prompt,
 * the grammar and the raw text carry the names the model uses (`uber_ride`
 * for `uber.ride`). Identity when no name changes.
 */
function decision(naming: ToolNames, entry: GuardDecision): GuardDecision {
  return "tool" in entry && typeof entry.tool === "string" ? { ...entry, tool: naming.original(entry.tool) } : entry;
}

function visible(naming: ToolNames, shown: TurnRecord["visible"]): TurnRecord["visible"] {
  const enums = Object.fromEntries(Object.entries(shown.enums).map(([key, values]) => {
    const { tool, param } = enumKeyParts(key);
    return [`${naming.original(tool)}.${param}`, values];
  }));
  return { ...shown, tools: shown.tools.map((tool) => naming.original(tool)), enums };
}

function step(naming: ToolNames, written: TurnRecord["step"]): TurnRecord["step"] {
  if (!written || written.call.tool === FINAL_ANSWER) return written;
  return { ...written, call: { ...written.call, tool: naming.original(written.call.tool) } };
}

export function turnWithOriginalNames(turn: TurnRecord, naming: ToolNames): TurnRecord {
  if (!naming.mapped) return turn;
  return {
    ...turn,
    visible: visible(naming, turn.visible),
    guards: turn.guards.map((entry) => decision(naming, entry)),
    step: step(naming, turn.step),
    tool: turn.tool ? { ...turn.tool, name: naming.original(turn.tool.name) } : null,
  };
}

export function eventWithOriginalNames(event: RunEvent, naming: ToolNames): RunEvent {
  if (!naming.mapped) return event;
  switch (event.type) {
    case "run-start":
      return { ...event, tools: event.tools.map((tool) => naming.original(tool)) };
    case "turn-start":
      return { ...event, visible: visible(naming, event.visible) };
    case "step":
      return { ...event, step: step(naming, event.step) };
    case "tool-start":
      return { ...event, name: naming.original(event.name) };
    case "tool-end":
      return { ...event, tool: { ...event.tool, name: naming.original(event.tool.name) } };
    default:
      return event;
  }
}
