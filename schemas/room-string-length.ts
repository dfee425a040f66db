import { GBNF_STRING_LIMIT } from "./gbnf-compiler.js";

/** The least default string bound a step's room gives: the fixed bound every step had before. */
export const ROOM_STRING_FLOOR = 256;

/** The room's bound moves in steps of this many code points, so the grammar (and llama.cpp's parse of it) changes only when the room does by that much. */
const ROOM_STRING_STEP = 64;

/**
 * The bound on a tool argument string whose schema sets no maxLength, where
 * runAgent's `defaultMaxLength` is not given: a code point for every two
 * tokens the step may sample (`stepTokens`: maxTokensPerStep, or what the
 * context has left after the prompt and the final's reserve, if less),
 * rounded down to a step of 64, at least ROOM_STRING_FLOOR and at most
 * GBNF_STRING_LIMIT. Half: a token of plain text holds at least one
 * character, and the other half is left for the rest of the step (the
 * thought, the call's frame, the other arguments), so a model that writes
 * one string to its bound still finishes its step; at every character per
 * token, one string could take the whole step and cut it off. A fixed 256
 * left valid arguments unwritable (a file's 316-character content, a
 * 306-character message: measured on the GitHub and Slack MCP servers'
 * tools).
 */
export function roomStringLength(stepTokens: number): number {
  const stepped = Math.floor(Math.max(0, stepTokens) / 2 / ROOM_STRING_STEP) * ROOM_STRING_STEP;
  return Math.min(GBNF_STRING_LIMIT, Math.max(ROOM_STRING_FLOOR, stepped));
}
