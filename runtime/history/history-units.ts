import { isCallPart, type HistoryItem, type ModelItem } from "../../base/chat-history.js";

/**
 * A history as the units incremental rendering cuts it at (an item, or one
 * part of a model response), and what it asks of them: whether one history
 * goes on from another, where its last turn starts, which units a turn
 * added, and the history of a run of units again.
 */

/** One history item, or one part of a model response: what a window is cut at. */
export interface Unit {
  readonly item: number;
  readonly source: HistoryItem;
  /** The response part; undefined for a system or user item, and for a model response with no parts. */
  readonly part?: ModelItem["response"][number];
  /** Whether the part is its response's first (it opens the turn: the same part later in a turn renders otherwise). */
  readonly first?: boolean;
}

export function unitsOf(history: readonly HistoryItem[]): Unit[] {
  const units: Unit[] = [];
  history.forEach((source, item) => {
    if (source.type !== "model" || source.response.length === 0) units.push({ item, source });
    else source.response.forEach((part, index) => units.push({ item, source, part, first: index === 0 }));
  });
  return units;
}

/** A model turn with nothing in it yet: the turn a renderer opens for the model. */
export const isEmptyTurn = (unit: Unit | undefined) => unit !== undefined && unit.source.type === "model" && unit.part === undefined;

export const isCall = (unit: Unit) => unit.part !== undefined && isCallPart(unit.part);

const json = (value: unknown) => JSON.stringify(value);

export function sameUnit(a: Unit, b: Unit): boolean {
  if (a.source.type !== b.source.type || (a.part === undefined) !== (b.part === undefined)) return false;
  if (a.part !== undefined) return a.first === b.first && (a.part === b.part || json(a.part) === json(b.part));
  if (a.source.type === "model") return true;
  return a.source === b.source || json(a.source) === json(b.source);
}

/** Whether `units` begin with `earlier`, a trailing empty model turn of `earlier` aside (the turn a renderer opens for the model, filled now). */
export function extendsUnits(units: readonly Unit[], earlier: readonly Unit[]): boolean {
  const kept = isEmptyTurn(earlier.at(-1)) ? earlier.length - 1 : earlier.length;
  if (kept > units.length) return false;
  for (let index = 0; index < kept; index++) if (!sameUnit(units[index]!, earlier[index]!)) return false;
  return true;
}

/**
 * Whether the history goes on from the earlier one with calls only (each
 * with the text before it), after a call or a question: a new question, an
 * answer, or a call after an answer may change how a template shows every
 * earlier turn, beyond any window (Qwen3 and Gemma 4 show thoughts only since
 * the last question, gpt-oss drops the analysis before a final answer).
 */
export function onlyCalls(earlier: readonly Unit[], units: readonly Unit[]): boolean {
  const last = earlier.findLast((unit) => !isEmptyTurn(unit));
  if (last?.part !== undefined && !isCall(last)) return false;
  let textBeforeCall = false;
  for (const unit of units.slice(isEmptyTurn(earlier.at(-1)) ? earlier.length - 1 : earlier.length)) {
    if (unit.part === undefined && !isEmptyTurn(unit)) return false;
    if (unit.part !== undefined) textBeforeCall = !isCall(unit);
  }
  return !textBeforeCall;
}

/** The history of these units: consecutive parts of one response together again. */
export function historyOf(units: readonly Unit[]): HistoryItem[] {
  const items: HistoryItem[] = [];
  let last: Unit | undefined;
  for (const unit of units) {
    if (unit.part === undefined) items.push(unit.source.type === "model" ? { ...unit.source, response: [] } : unit.source);
    else if (last?.part !== undefined && last.item === unit.item) (items.at(-1) as ModelItem).response.push(unit.part);
    else items.push({ ...(unit.source as ModelItem), response: [unit.part] });
    last = unit;
  }
  return items;
}

/** `index` moved back, no further than `floor`, onto the first of the texts in its response that the call there follows. */
export function turnStart(units: readonly Unit[], index: number, floor: number): number {
  let start = index;
  while (start > floor && units[start]!.part !== undefined && !units[start]!.first && !isCall(units[start - 1]!)) start--;
  return start;
}

/** Where the last turn of a history's units starts: its last item, the texts a call there follows, and a trailing empty model turn. */
export function lastTurnStart(units: readonly Unit[]): number {
  let index = units.length - 1;
  if (isEmptyTurn(units[index])) index--;
  return turnStart(units, Math.max(0, index), 0);
}
