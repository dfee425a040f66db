import { validateAgainst } from "../schemas/validator-cache.js";
import { enumKey, isNumericSchema, topLevelProperties } from "./enum-domains.js";
import { groundedNumbers } from "./grounded-numbers.js";
import type { Guard, GuardDecision } from "./run-state.js";

/**
 * G4 in the grammar: a numeric argument's legal values are exactly the
 * grounded numbers (that also satisfy its own schema), so they become an
 * enum and an invented number is unsampleable. A tool whose required number
 * has no grounded candidate yet is hidden until one exists. The FinalAnswer
 * text may then write digits only as grounded numbers.
 */
export const numericEnumGuard: Guard = (state, view) => {
  const grounded = groundedNumbers(state);
  const decisions: GuardDecision[] = [];
  const enums = { ...view.enums };
  const hidden: string[] = [];
  for (const tool of state.tools.filter((candidate) => view.tools.includes(candidate.name))) {
    for (const property of topLevelProperties(tool.params).filter((candidate) => isNumericSchema(candidate.schema))) {
      const key = enumKey(tool.name, property.name);
      const allowed = grounded.filter((number) => validateAgainst(property.schema, number).length === 0);
      if (allowed.length > 0) {
        enums[key] = allowed;
        decisions.push({ guard: "G4", effect: `${key} limited to ${allowed.join(", ")}`, reason: "numbers must come from the request or a tool result" });
      } else if (property.required) {
        hidden.push(tool.name);
        decisions.push({ guard: "G4", effect: `${tool.name} hidden`, reason: `no grounded number can fill ${key} yet` });
        break;
      }
    }
  }
  return {
    view: { ...view, tools: view.tools.filter((tool) => !hidden.includes(tool)), enums, answerNumbers: grounded },
    decisions,
  };
};
