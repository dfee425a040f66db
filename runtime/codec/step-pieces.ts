import { composeGbnf } from "../../schemas/gbnf-compiler.js";
import { gbnfLiteral } from "../../schemas/gbnf-literal.js";
import { repeat, sequence, textCharClass, type RuleSet } from "../../schemas/gbnf-rules.js";
import { readNotation } from "../../schemas/read-notation.js";
import { NOTATIONS, writeValue } from "../../base/value-notation.js";
import { FINAL_ANSWER, type StepParts } from "../../schemas/step-schema.js";
import type { StepEnd } from "../engine/decode/step-end.js";
import type { CallFrame } from "../format/call-frame.js";
import { ConfigurationError } from "../../base/configuration-error.js";
import type { GrammarBounds, DecodedStep, LogicalStep } from "./step-codec.js";

/**
 * A native step as a sequence of pieces, laid out from its call frame: fixed
 * text, the thought, the tool's name, the arguments. The step's four views
 * (its grammar, its reading, its writing, where its text ends) are each one
 * walk over the same pieces, so what the grammar admits is what is read and
 * what is written, by construction rather than by agreement.
 */
export type Piece = TextPiece | SlotPiece;
export interface TextPiece {
  readonly text: string;
}
export interface SlotPiece {
  readonly slot: "thought" | "name" | "args";
}

export interface StepPieces {
  /** The ways a step opens, tried in this order: with its thought (where the frame keeps one and one is wanted), then without. */
  readonly openings: ReadonlyArray<readonly Piece[]>;
  /** The call: the tool's name, the text before its arguments, the arguments, the text after them. */
  readonly call: readonly Piece[];
  readonly notation: CallFrame["notation"];
}

/** The pieces of a step written in `frame`, with its thought where `thought` and the frame keeps one. A frame that keeps a thought but has no text after it (where the call would start unambiguously) is a ConfigurationError. */
export function stepPieces(frame: CallFrame, thought: boolean): StepPieces {
  if (frame.keepsThought && frame.afterThought === "") throw new ConfigurationError("frame", "a frame that keeps a thought needs text after it (afterThought), whose first character no thought may contain");
  const without: Piece[] = [{ text: frame.withoutThought }];
  const withThought: Piece[] = [{ text: frame.beforeThought }, { slot: "thought" }, { text: frame.afterThought }];
  return {
    openings: thought && frame.keepsThought ? [withThought, without] : [without],
    call: [{ slot: "name" }, { text: frame.beforeArgs }, { slot: "args" }, { text: frame.after }],
    notation: frame.notation,
  };
}

const isText = (piece: Piece): piece is TextPiece => "text" in piece;
/** The fixed texts of pieces `from` to `to` (not included), slots left out. */
const textsOf = (pieces: readonly Piece[], from = 0, to = pieces.length) => pieces.slice(from, to).filter(isText).map((piece) => piece.text);
/** Where a slot is in the pieces (-1 where it is not). */
const slotAt = (pieces: readonly Piece[], slot: SlotPiece["slot"]) => pieces.findIndex((piece) => !isText(piece) && piece.slot === slot);
/** The first character of the fixed text right after piece `index`: what ends the free text there. */
const stopAfter = (pieces: readonly Piece[], index: number) => {
  const next = pieces[index + 1];
  return next && isText(next) ? next.text[0]! : "";
};
const argumentsOf = (branch: StepParts["branches"][number]) => (branch.field === "answer" ? { type: "object", properties: { answer: branch.schema }, required: ["answer"] } : branch.schema);

/**
 * The thought as plain text: printable characters and spaces, none of the
 * first character of the text after it (so the call starts unambiguously),
 * one to `maxLength` characters, starting and ending with a visible one (a
 * template that trims would render it otherwise).
 */
function thoughtRule(rules: RuleSet, stop: string, maxLength: number): string {
  const character = rules.add("thought-char", textCharClass(stop));
  if (maxLength === 1) return character;
  const inner = rules.add("thought-inner", `${character} | " "`);
  return rules.add("thought", sequence(character, `(${sequence(repeat(inner, 0, maxLength - 2), character)})?`));
}

/** The grammar: each opening, then one call of each branch's tool; `thoughtMaxLength` bounds the thought where the step has one. */
export function piecesGrammar(pieces: StepPieces, parts: StepParts, thoughtMaxLength: number, bounds?: GrammarBounds): string {
  return composeGbnf({ ...bounds, notation: pieces.notation }, ({ rules, compile }) => {
    const emit = (sequenceOfPieces: readonly Piece[], branch?: StepParts["branches"][number]) => {
      const items: string[] = [];
      let fixed = "";
      const flush = () => {
        if (fixed !== "") items.push(gbnfLiteral(fixed));
        fixed = "";
      };
      sequenceOfPieces.forEach((piece, index) => {
        if (isText(piece)) fixed += piece.text;
        else if (piece.slot === "name") fixed += branch!.tool;
        else {
          flush();
          items.push(piece.slot === "thought" ? thoughtRule(rules, stopAfter(sequenceOfPieces, index), thoughtMaxLength) : compile(argumentsOf(branch!), `${branch!.tool}-args`));
        }
      });
      flush();
      return sequence(...items);
    };
    const branches = parts.branches.map((branch) => emit(pieces.call, branch));
    const call = branches.length === 1 ? branches[0]! : rules.add("call", branches.map((branch) => `(${branch})`).join(" | "));
    const openings = pieces.openings.map((opening) => emit(opening));
    if (openings.length === 1) return sequence(openings[0]!, call);
    // The thought may be empty, as in a JSON step: then the call opens as it does without one.
    return sequence(`(${openings.map((opening) => (opening === "" ? '""' : opening)).join(" | ")})`, call);
  });
}

/** Reads an opening at the start of `text`: where the call begins, and the thought if the opening has one (never empty); null where it does not open so. */
function readOpening(opening: readonly Piece[], text: string): { at: number; thought?: string } | null {
  let at = 0;
  let thought: string | undefined;
  for (const [index, piece] of opening.entries()) {
    if (isText(piece)) {
      if (!text.startsWith(piece.text, at)) return null;
      at += piece.text.length;
    } else {
      const end = text.indexOf(stopAfter(opening, index), at);
      if (end <= at) return null;
      thought = text.slice(at, end);
      at = end;
    }
  }
  return thought === undefined ? { at } : { at, thought };
}

/** A step's text as the logical step, or why it is not one: an opening, then the call (name, text, arguments in the notation, text). */
export function piecesDecode(pieces: StepPieces, text: string, parts: StepParts): DecodedStep {
  const opened = pieces.openings.map((opening) => readOpening(opening, text)).find((read) => read !== null);
  if (!opened) return { ok: false, message: "the text does not open a call" };
  // A step written without a thought: the empty thought, where the step has one (the history renders both alike).
  const thought = opened.thought ?? (parts.thought ? "" : undefined);
  // The call: texts, the name, texts, the arguments, texts (the texts between slots joined).
  const [nameAt, argsAt] = [slotAt(pieces.call, "name"), slotAt(pieces.call, "args")];
  const [opening, beforeArgs, after] = [textsOf(pieces.call, 0, nameAt), textsOf(pieces.call, nameAt + 1, argsAt), textsOf(pieces.call, argsAt + 1)].map((texts) => texts.join("")) as [string, string, string];
  const rest = text.slice(opened.at);
  const name = rest.startsWith(opening) ? /^[A-Za-z0-9_-]+/.exec(rest.slice(opening.length))?.[0] : undefined;
  if (!name || !rest.startsWith(beforeArgs, opening.length + name.length)) return { ok: false, message: "no tool name where the call names one" };
  if (!rest.endsWith(after)) return { ok: false, message: "the call is not closed" };
  const read = readNotation(rest.slice(opening.length + name.length + beforeArgs.length, rest.length - after.length), NOTATIONS[pieces.notation]);
  if (!read.ok) return read;
  const args = read.value;
  const call = name === FINAL_ANSWER ? { tool: name, answer: (args as { answer?: unknown } | null)?.answer } : { tool: name, args };
  return { ok: true, value: thought === undefined ? { call } : { thought, call } };
}

/** A logical step written in the pieces: its thought in the first opening where it has one, else the opening without. */
export function piecesEncode(pieces: StepPieces, step: LogicalStep): string {
  const opening = step.thought ? pieces.openings[0]! : pieces.openings.at(-1)!;
  const args = step.call.tool === FINAL_ANSWER ? { answer: step.call.answer } : step.call.args;
  const write = (piece: Piece) => (isText(piece) ? piece.text : piece.slot === "thought" ? step.thought! : piece.slot === "name" ? step.call.tool : writeValue(args, NOTATIONS[pieces.notation]));
  return [...opening, ...pieces.call].map(write).join("");
}

/**
 * Where a step ends: after the texts that follow its free text (an
 * opening's texts after its thought, or all of them, then the call's texts
 * before the arguments), one value, then the text after it. Openings found
 * after texts of their own are told apart by the first one's text before
 * its thought; where they cannot be, only the texts both share are looked for.
 */
export function piecesEnd(pieces: StepPieces): StepEnd {
  const nonEmpty = (markers: readonly string[]) => markers.filter((marker) => marker !== "");
  const args = slotAt(pieces.call, "args");
  const beforeArgs = textsOf(pieces.call, 0, args);
  const after = textsOf(pieces.call, args + 1).join("");
  // With nothing between the name and the arguments, the name is passed over before them.
  const named = beforeArgs.every((text) => text === "") ? { named: true } : {};
  // An opening's markers: its texts after its free text (all of them where it has none).
  const markersOf = (opening: readonly Piece[]) => textsOf(opening, opening.findLastIndex((piece) => !isText(piece)) + 1);
  const [first, second] = pieces.openings.map(markersOf) as [string[], string[] | undefined];
  // The markers both openings end with, the last ones first.
  let shared = 0;
  while (second && shared < Math.min(first.length, second.length) && first.at(-1 - shared) === second.at(-1 - shared)) shared++;
  if (second === undefined || (shared === first.length && shared === second.length)) return { before: nonEmpty([...first, ...beforeArgs]), after, ...named };
  const firstOpening = pieces.openings[0]!;
  const prefix = textsOf(firstOpening, 0, firstOpening.findIndex((piece) => !isText(piece))).join("");
  if (prefix === "") return { before: nonEmpty([...first.slice(first.length - shared), ...beforeArgs]), after, ...named };
  return { before: nonEmpty([...second, ...beforeArgs]), after, opening: { prefix, before: nonEmpty([...first, ...beforeArgs]) }, ...named };
}
