import type { ChatHistoryItem, ChatModelResponse, LlamaText } from "node-llama-cpp";
import { sliceLlamaText, sliceLlamaTextEnd, textRuns } from "./llama-text-slice.js";

/**
 * Rendering that costs what a turn adds. A turn's history is the last one
 * with a step and its result appended, and a chat template renders it as the
 * last prompt with text appended. Rendering the whole history every turn
 * makes a turn's cost grow with the conversation; here a history that
 * extends one rendered before is rendered as a window instead: its head (the
 * items up to the last question and the first call after it: system text,
 * tool documentation, earlier exchanges, a first call written otherwise)
 * and its last few items, once without what is new and once with it. What
 * the second adds to the first is appended to the earlier prompt.
 *
 * Used only where these hold, else the whole history is rendered:
 * - the earlier history is the new one's beginning, item for item, and what
 *   is new is calls (each with the text before it) after a call or a
 *   question: a new question or an answer may change how a template shows
 *   every earlier turn, beyond any window (Qwen3 and Gemma 4 show thoughts
 *   only since the last question, gpt-oss drops the analysis before a final
 *   answer);
 * - the window without what is new is the earlier prompt with its middle
 *   cut out, as text and as special-token and plain parts: the window's old
 *   items render in the window exactly as they do at the end of the whole
 *   history (a template that numbers calls, marks the first one, or reads
 *   the last query shows it there). Where the old part begins is read off
 *   the head rendered alone, so an old part that repeats the turns after
 *   the head cannot pass by matching the prompt's beginning;
 * - the window with what is new extends the window without it, or rewrites
 *   only its last turn (Hermes-3 and DeepSeek-R1 end their last tool result
 *   otherwise than one a turn follows);
 * - the window holds less than half the history (else the whole costs no
 *   more).
 * A window is reused, turn after turn, until it holds four times the items
 * it started with, so that most turns render once.
 *
 * What no window can show: a template whose rendering of a turn before the
 * window changes when a call is added (one that marked every earlier call
 * to the same city as the newest, say). No template of the corpus does;
 * renderContext renders as additions only with the wrappers the tests cover.
 * The tests render every corpus template both ways, turn by turn, on
 * random runs (test/runtime/history/incremental-render.test.ts).
 */

/** One history item, or one part of a model response: what a window is cut at. */
interface Unit {
  readonly item: number;
  readonly source: ChatHistoryItem;
  /** The response part; undefined for a system or user item, and for a model response with no parts. */
  readonly part?: ChatModelResponse["response"][number];
  /** Whether the part is its response's first (it opens the turn: the same part later in a turn renders otherwise). */
  readonly first?: boolean;
}

interface Rendered {
  readonly key: string;
  readonly units: readonly Unit[];
  readonly text: LlamaText;
  readonly string: string;
  /** The window this prompt was rendered with (where its head ends and its old part starts, and its text), where it was. */
  readonly window?: {
    readonly headEnd: number;
    readonly start: number;
    /** Where the old part begins in the window's text. */
    readonly oldAt: number;
    readonly text: LlamaText;
    readonly string: string;
    /** Where the units this prompt added begin, and where the window's text with them left the window's text without them. */
    readonly added?: { readonly from: number; readonly at: number };
  };
}

/** Items of old history a window starts with beside its head: enough that a template's state (numbering, a call's turn, the last query) shows in them. */
const WINDOW_UNITS = 2;
/** Histories remembered per renderer: conversations rendered in turn on one model (a server's slots) each keep theirs. */
const REMEMBERED = 32;

function unitsOf(history: readonly ChatHistoryItem[]): Unit[] {
  const units: Unit[] = [];
  history.forEach((source, item) => {
    if (source.type !== "model" || source.response.length === 0) units.push({ item, source });
    else source.response.forEach((part, index) => units.push({ item, source, part, first: index === 0 }));
  });
  return units;
}

/** A model turn with nothing in it yet: the turn a renderer opens for the model. */
const isEmptyTurn = (unit: Unit | undefined) => unit !== undefined && unit.source.type === "model" && unit.part === undefined;

const isCall = (unit: Unit) => typeof unit.part === "object" && unit.part.type === "functionCall";

const json = (value: unknown) => JSON.stringify(value);

function sameUnit(a: Unit, b: Unit): boolean {
  if (a.source.type !== b.source.type || (a.part === undefined) !== (b.part === undefined)) return false;
  if (a.part !== undefined) return a.first === b.first && (a.part === b.part || json(a.part) === json(b.part));
  if (a.source.type === "model") return true;
  return a.source === b.source || json(a.source) === json(b.source);
}

/** Whether `units` begin with `earlier`, a trailing empty model turn of `earlier` aside (the turn a renderer opens for the model, filled now). */
function extendsUnits(units: readonly Unit[], earlier: readonly Unit[]): boolean {
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
function onlyCalls(earlier: readonly Unit[], units: readonly Unit[]): boolean {
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
function historyOf(units: readonly Unit[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = [];
  let last: Unit | undefined;
  for (const unit of units) {
    if (unit.part === undefined) items.push(unit.source.type === "model" ? { ...unit.source, response: [] } : unit.source);
    else if (last?.part !== undefined && last.item === unit.item) (items.at(-1) as ChatModelResponse).response.push(unit.part);
    else items.push({ ...(unit.source as ChatModelResponse), response: [unit.part] });
    last = unit;
  }
  return items;
}

/** How many leading characters two texts share. */
export function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

function commonSuffix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(a.length - 1 - index) === b.charCodeAt(b.length - 1 - index)) index++;
  return index;
}

/**
 * Where a window's old part starts: `WINDOW_UNITS` before the end of the
 * earlier history, after the head, moved back onto the text a call follows
 * in its response (a thought and its call are one turn). Null where the
 * window would hold the whole history.
 */
function windowStart(units: readonly Unit[], headEnd: number, earlierEnd: number): number | null {
  const start = turnStart(units, earlierEnd - WINDOW_UNITS, headEnd);
  return start > headEnd ? start : null;
}

/** `index` moved back, no further than `floor`, onto the first of the texts in its response that the call there follows. */
function turnStart(units: readonly Unit[], index: number, floor: number): number {
  let start = index;
  while (start > floor && units[start]!.part !== undefined && !units[start]!.first && !isCall(units[start - 1]!)) start--;
  return start;
}

/** Where the last turn of a history's units starts: its last item, the texts a call there follows, and a trailing empty model turn. */
function lastTurnStart(units: readonly Unit[]): number {
  let index = units.length - 1;
  if (isEmptyTurn(units[index])) index--;
  return turnStart(units, Math.max(0, index), 0);
}

/** Prompts a renderer made, kept to render the next turn's as what it appends. */
export class IncrementalRenderer {
  private readonly rendered: Rendered[] = [];
  private lastHead: { readonly key: string; readonly units: readonly Unit[]; readonly text: string } | undefined;
  /** How many histories were rendered as an addition, and how many whole. */
  readonly counts = { appended: 0, whole: 0 };

  /** `render` is the renderer's own whole rendering of a history; `key` says what else it depends on (the documented functions, its options). */
  render(history: readonly ChatHistoryItem[], key: string, render: (history: ChatHistoryItem[]) => LlamaText): LlamaText {
    const units = unitsOf(history);
    const earlier = this.rendered.findLast((entry) => entry.key === key && entry.units.length < units.length && extendsUnits(units, entry.units));
    let appended: Omit<Rendered, "key" | "units"> | null = null;
    try {
      appended = earlier ? this.appended(units, earlier, render) : null;
    } catch {
      // A window the template refuses (a role order it checks, seen from the middle): the whole history is rendered, and is the judge.
    }
    this.counts[appended ? "appended" : "whole"]++;
    const text = appended?.text ?? render([...history]);
    // The prompt this one goes on from is not needed again: a history goes on from its latest prompt.
    if (earlier) this.rendered.splice(this.rendered.indexOf(earlier), 1);
    else if (this.rendered.length >= REMEMBERED) this.rendered.shift();
    this.rendered.push({ key, units, text, string: appended?.string ?? text.toString(), ...(appended?.window ? { window: appended.window } : {}) });
    return text;
  }

  /** The head rendered alone (kept while the head and the key stay the same). */
  private headText(head: readonly Unit[], key: string, render: (history: ChatHistoryItem[]) => LlamaText): string {
    const last = this.lastHead;
    if (last && last.key === key && last.units.length === head.length && head.every((unit, index) => sameUnit(unit, last.units[index]!))) return last.text;
    const text = render(historyOf(head)).toString();
    this.lastHead = { key, units: head, text };
    return text;
  }

  private appended(units: readonly Unit[], earlier: Rendered, render: (history: ChatHistoryItem[]) => LlamaText): Omit<Rendered, "key" | "units"> | null {
    if (!onlyCalls(earlier.units, units)) return null;
    // The head: up to the last question and the first call after it (a template may show a question's turns by where its last
    // query is, or write its first call otherwise: DeepSeek-R1 opens its call list there).
    const lastUser = units.findLastIndex((unit) => unit.source.type === "user");
    if (lastUser < 0) return null;
    const headEnd = units.findIndex((unit, index) => index > lastUser && isCall(unit)) + 1 || lastUser + 1;
    // The last turn's window again while it holds no more than four times the items it starts with: one rendering a turn, not two.
    const reused = earlier.window && earlier.window.headEnd === headEnd && earlier.units.length - earlier.window.start <= 4 * WINDOW_UNITS ? earlier.window : null;
    const start = reused?.start ?? windowStart(units, headEnd, earlier.units.length);
    // A window that holds half the history or more costs as much as the whole (two renderings where a turn opens one).
    if (start === null || 2 * (headEnd + units.length - start) > units.length) return null;
    const head = units.slice(0, headEnd);
    const window = (rest: readonly Unit[]) => render(historyOf([...head, ...rest]));
    const beforeText = reused?.text ?? window(earlier.units.slice(start));
    const before = reused?.string ?? beforeText.toString();
    // Where the window's old part begins: past the head's own text (the head rendered alone, once per head).
    const oldAt = reused?.oldAt ?? commonPrefix(this.headText(head, earlier.key, render), before);
    const after = window(units.slice(start));
    const afterString = after.toString();
    // Where the window with what is new leaves the window without it: at its end, or inside its last item (a template that writes
    // its last message otherwise, Hermes-3's last tool response), never further back.
    const kept = commonPrefix(afterString, before);
    if (kept < before.length) {
      // Where the window without its last turn leaves it: known from the turn before where that turn was what it added
      // (the window without it was that turn's window before, and this one its window after).
      const lastTurn = lastTurnStart(earlier.units);
      const turnAt = reused?.added?.from === lastTurn ? reused.added.at : commonPrefix(before, window(earlier.units.slice(start, lastTurn)).toString());
      if (kept < turnAt) return null;
    }
    // The window's head renders as the earlier prompt's beginning and its old part as that prompt's end, the rewritten part
    // included (all of it: an old part that repeats the turns after the head would match the beginning too).
    const prefix = commonPrefix(before, earlier.string);
    const suffix = commonSuffix(before, earlier.string);
    if (prefix < oldAt || suffix < before.length - oldAt || kept < before.length - suffix) return null;
    // ...and tokenizes alike: the same special-token text and plain text, where the window's text extends and where it meets the earlier prompt.
    const runsOf = (text: LlamaText, start: number, end?: number) => textRuns(sliceLlamaText(text, start, end));
    if (runsOf(after, 0, kept) !== runsOf(beforeText, 0, kept)) return null;
    if (runsOf(beforeText, 0, prefix) !== runsOf(earlier.text, 0, prefix) || textRuns(sliceLlamaTextEnd(beforeText, suffix)) !== textRuns(sliceLlamaTextEnd(earlier.text, suffix))) return null;
    const cut = earlier.string.length - (before.length - kept);
    const text = kept === before.length ? earlier.text.concat(sliceLlamaText(after, kept)) : sliceLlamaText(earlier.text, 0, cut).concat(sliceLlamaText(after, kept));
    return { text, string: earlier.string.slice(0, cut) + afterString.slice(kept), window: { headEnd, start, oldAt, text: after, string: afterString, ...(isEmptyTurn(earlier.units.at(-1)) ? {} : { added: { from: earlier.units.length, at: kept } }) } };
  }
}
