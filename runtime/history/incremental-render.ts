import type { LlamaText } from "node-llama-cpp";
import type { HistoryItem } from "../../base/chat-history.js";
import { extendsUnits, historyOf, isCall, isEmptyTurn, lastTurnStart, onlyCalls, sameUnit, turnStart, unitsOf, type Unit } from "./history-units.js";
import { commonPrefix, commonSuffix } from "../../base/shared-text.js";
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
 * A turn renders once: the window without what is new is the last turn's
 * window with what is new, kept. Its middle is cut, turn by turn, at the
 * start of a turn it added (the head's own text put before it where the
 * head alone ends as the history before that turn did), so that a window
 * holds the head and the last two turns; the window with what is new is
 * checked against the cut as against a rendered one. Only a window made anew
 * (a new head, a turn rendered whole before) renders twice.
 *
 * What no window can show: a template whose rendering of a turn before the
 * window changes when a call is added (one that marked every earlier call
 * to the same city as the newest, say). No template of the corpus does;
 * renderContext renders as additions only with the wrappers the tests cover.
 * The tests render every corpus template both ways, turn by turn, on
 * random runs (test/runtime/history/incremental-render.test.ts).
 */

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
    /** The turns the window added, in order: where a middle cut can fall. */
    readonly turns: readonly WindowTurn[];
  };
}

/** A turn a window added: the unit it begins at, where the window's text with it left the text without it, and how that text ended from there. */
interface WindowTurn {
  readonly from: number;
  readonly at: number;
  readonly tail: string;
}

/** A window's text without what is new, and where its old part begins. */
interface WindowBefore {
  readonly start: number;
  readonly oldAt: number;
  readonly text: LlamaText;
  readonly string: string;
  readonly turns: readonly WindowTurn[];
  /** Whether it is the last window cut (not rendered). */
  readonly cut?: boolean;
}

/** Items of old history a window starts with beside its head: enough that a template's state (numbering, a call's turn, the last query) shows in them. */
const WINDOW_UNITS = 2;
/** Histories remembered per renderer: conversations rendered in turn on one model (a server's slots) each keep theirs. */
const REMEMBERED = 32;

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

/** Prompts a renderer made, kept to render the next turn's as what it appends. */
export class IncrementalRenderer {
  private readonly rendered: Rendered[] = [];
  private lastHead: { readonly key: string; readonly units: readonly Unit[]; readonly text: LlamaText; readonly string: string } | undefined;
  /** How many histories were rendered as an addition (through a window cut from the last one: `cut`), and how many whole; how many times the template rendered (a window, a head, a whole history). */
  readonly counts = { appended: 0, cut: 0, whole: 0, renderings: 0 };

  /** `render` is the renderer's own whole rendering of a history; `key` says what else it depends on (the documented functions, its options). */
  render(history: readonly HistoryItem[], key: string, renderHistory: (history: HistoryItem[]) => LlamaText): LlamaText {
    const render = (items: HistoryItem[]) => (this.counts.renderings++, renderHistory(items));
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
  private headText(head: readonly Unit[], key: string, render: (history: HistoryItem[]) => LlamaText): { readonly text: LlamaText; readonly string: string } {
    const last = this.lastHead;
    if (last && last.key === key && last.units.length === head.length && head.every((unit, index) => sameUnit(unit, last.units[index]!))) return last;
    const text = render(historyOf(head));
    this.lastHead = { key, units: head, text, string: text.toString() };
    return this.lastHead;
  }

  /**
   * The window without what is new: the last turn's window with what was
   * new then, cut at the start of a turn it added, the last turn and the
   * one before kept (a cut the window with what is new checks: it falls
   * before the last turn, whose rewrite alone is allowed); else that window
   * as it was, while it holds no more than four times the items it started
   * with; else a window rendered anew.
   */
  private windowBefore(units: readonly Unit[], earlier: Rendered, headEnd: number, lastTurn: number, headAlone: () => { readonly text: LlamaText; readonly string: string }, window: (rest: readonly Unit[]) => LlamaText): WindowBefore | null {
    const last = earlier.window?.headEnd === headEnd ? earlier.window : null;
    if (last) {
      const cut = last.turns.findLast((turn) => turn.from > last.start && turn.from < lastTurn && turn.at >= last.oldAt);
      const head = cut && headAlone();
      if (cut && head && head.string.endsWith(cut.tail)) {
        const oldAt = head.string.length - cut.tail.length;
        return {
          start: cut.from,
          oldAt,
          text: sliceLlamaText(head.text, 0, oldAt).concat(sliceLlamaText(last.text, cut.at)),
          string: head.string.slice(0, oldAt) + last.string.slice(cut.at),
          turns: last.turns.filter((turn) => turn.from >= cut.from).map((turn) => ({ ...turn, at: turn.at - cut.at + oldAt })),
          cut: true,
        };
      }
      if (earlier.units.length - last.start <= 4 * WINDOW_UNITS) return last;
    }
    const start = windowStart(units, headEnd, earlier.units.length);
    if (start === null) return null;
    const text = window(earlier.units.slice(start));
    const string = text.toString();
    // Where the window's old part begins: past the head's own text (the head rendered alone, once per head).
    return { start, oldAt: commonPrefix(headAlone().string, string), text, string, turns: [] };
  }

  private appended(units: readonly Unit[], earlier: Rendered, render: (history: HistoryItem[]) => LlamaText): Omit<Rendered, "key" | "units"> | null {
    if (!onlyCalls(earlier.units, units)) return null;
    // The head: up to the last question and the first call after it (a template may show a question's turns by where its last
    // query is, or write its first call otherwise: DeepSeek-R1 opens its call list there).
    const lastUser = units.findLastIndex((unit) => unit.source.type === "user");
    if (lastUser < 0) return null;
    const headEnd = units.findIndex((unit, index) => index > lastUser && isCall(unit)) + 1 || lastUser + 1;
    const head = units.slice(0, headEnd);
    const window = (rest: readonly Unit[]) => render(historyOf([...head, ...rest]));
    const lastTurn = lastTurnStart(earlier.units);
    const before = this.windowBefore(units, earlier, headEnd, lastTurn, () => this.headText(head, earlier.key, render), window);
    // A window that holds half the history or more costs as much as the whole (two renderings where a turn opens one).
    if (before === null || 2 * (headEnd + units.length - before.start) > units.length) return null;
    const { start, oldAt } = before;
    const after = window(units.slice(start));
    const afterString = after.toString();
    // Where the window with what is new leaves the window without it: at its end, or inside its last turn (a template that writes
    // its last message otherwise, Hermes-3's last tool response), never further back.
    const kept = commonPrefix(afterString, before.string);
    if (kept < before.string.length) {
      // Where the window without its last turn leaves it: known where the window added that turn.
      const added = before.turns.at(-1);
      const turnAt = added?.from === lastTurn ? added.at : commonPrefix(before.string, window(earlier.units.slice(start, lastTurn)).toString());
      if (kept < turnAt) return null;
    }
    // The window's head renders as the earlier prompt's beginning and its old part as that prompt's end, the rewritten part
    // included (all of it: an old part that repeats the turns after the head would match the beginning too).
    const prefix = commonPrefix(before.string, earlier.string);
    const suffix = commonSuffix(before.string, earlier.string);
    if (prefix < oldAt || suffix < before.string.length - oldAt || kept < before.string.length - suffix) return null;
    // ...and tokenizes alike: the same special-token text and plain text, where the window's text extends and where it meets the earlier prompt.
    const runsOf = (text: LlamaText, start: number, end?: number) => textRuns(sliceLlamaText(text, start, end));
    if (runsOf(after, 0, kept) !== runsOf(before.text, 0, kept)) return null;
    if (runsOf(before.text, 0, prefix) !== runsOf(earlier.text, 0, prefix) || textRuns(sliceLlamaTextEnd(before.text, suffix)) !== textRuns(sliceLlamaTextEnd(earlier.text, suffix))) return null;
    const cut = earlier.string.length - (before.string.length - kept);
    const text = kept === before.string.length ? earlier.text.concat(sliceLlamaText(after, kept)) : sliceLlamaText(earlier.text, 0, cut).concat(sliceLlamaText(after, kept));
    // The turn this window adds, where a later cut can fall (not where it fills a model turn the earlier prompt opened empty).
    const turns = isEmptyTurn(earlier.units.at(-1)) ? before.turns : [...before.turns, { from: earlier.units.length, at: kept, tail: before.string.slice(kept) }];
    if (before.cut) this.counts.cut++;
    return { text, string: earlier.string.slice(0, cut) + afterString.slice(kept), window: { headEnd, start, oldAt, text: after, string: afterString, turns } };
  }
}
