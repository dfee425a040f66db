import type { DocumentedFunctions, HistoryItem } from "../../base/chat-history.js";
import type { CallAttempt, RunState } from "../../guards/run-state.js";
import type { JudgementOptions } from "../judgements/ask-judgement.js";
import type { HeldText } from "../history/held-prompt.js";
import { adoptTools } from "../tools/foreign/foreign-tools.js";
import { initialHistory } from "../history/history-items.js";
import type { ModelSession } from "../engine/model-port.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import type { Tool } from "../tools/define-tool.js";
import { needsApproval } from "../tools/tool-approval.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { everyTool, shortlistTools, type ToolShortlist } from "../tools/tool-shortlist.js";
import { renderHistory } from "../history/render-history.js";
import { toolDocumentationBudget } from "../engine/context-budget.js";
import type { RunConfig } from "./run-config.js";
import type { RunRecorder } from "./run-recorder.js";

/** What the questions of one conversation share: the tools, their documentation, and the history in the model's own format. */
export interface Conversation {
  /** The tools the prompt documents (see ToolShortlist): what the guards, the grammar and the calls see. */
  readonly registry: ToolRegistry;
  /** Every tool the run was given, checked: whether or not the prompt shows a tool, a definition or grammar that cannot work is refused up front. */
  readonly given: ToolRegistry;
  /** Which tools the prompt documents and why the others are not there (original names). */
  readonly shortlist: ToolShortlist;
  /** The full tool set as the chat wrapper documents it (absent when the codec documents the tools in the system text): the same every turn, so the prompt prefix never changes. */
  readonly functions: DocumentedFunctions | undefined;
  /** Append-only: each prompt extends the last, so the KV cache is reused. */
  readonly history: HistoryItem[];
  /** The questions asked before the current one, with the calls that succeeded answering them (append-only). */
  readonly earlier: Array<{ readonly task: string; readonly calls: readonly CallAttempt[] }>;
  /** Where each question's exchange starts in `history` (its task's item), oldest first; the current question's last. */
  readonly exchanges: number[];
  /**
   * How many of the earliest exchanges have left the prompt, because the
   * context could not hold them beside a step (see prepareTurn): the prompt
   * shows the system message, then the exchanges from this one on. What
   * left the prompt left the run state too: its numbers ground no answer,
   * and its calls answer no repeat.
   */
  dropped: number;
  /** What the model session read and wrote in the last step, as the history shows it: the next prompt starts with these tokens where its text does. */
  held: HeldText | undefined;
  /** Whether the history's last item is a call whose result no prompt has shown yet: the next turn's guard notes go into it (see appendNotes). */
  resultUnshown: boolean;
  /** Tools a person approved for the rest of the conversation (an `always` to runAgent's `approve`), model-facing names: only ever added to. */
  readonly granted: Set<string>;
}

/** One question being answered: a run, or one ask of a conversation. Its facts are its recorder's records. */
export interface Question {
  readonly config: RunConfig;
  readonly conversation: Conversation;
  readonly recorder: RunRecorder;
  /** The session every step and judgement of the question is sampled in (its own KV cache). */
  readonly session: Pick<ModelSession, "generate">;
  /**
   * Whether a call that passes every check is handed back to the caller
   * instead of run, ending the turns (a guarded step: the client runs its
   * tools). A refused call is still answered here, and the turns go on.
   */
  readonly handsOffCalls?: boolean;
}

/** A conversation's tools and history, from the first question's configuration. Throws only for configuration errors (tool definitions, names, schemas). */
export function createConversation(config: RunConfig): Conversation {
  const adopted = adoptTools(config.tools);
  // Every tool is checked, whether or not the prompt will show it.
  const given = new ToolRegistry(adopted);
  // The model reads the names it writes (modelFacingName); the codec says who documents the tools, and how.
  const prelude = (tools: readonly ToolRegistry["tools"][number][]) => config.codec.prelude(config.system, tools, config.profile.thought, config.answerSchema);
  const contextSize = config.model.description.contextSize;
  const budget = toolDocumentationBudget(contextSize, config.toolShare);
  let chosen: ReturnType<typeof shortlistTools<ToolRegistry["tools"][number]>>;
  try {
    chosen = shortlistTools({
      task: config.task,
      tools: given.tools,
      neverOffered: new Set([...config.disabledTools.map((name) => given.naming.model(name)), ...given.tools.filter((tool) => offForRun(config, tool)).map((tool) => tool.name)]),
      measure: (tools) => {
        const { system, functions } = prelude(tools);
        return renderHistory(config.model, initialHistory(system, config.task), functions).length;
      },
      budget,
    });
  } catch (error) {
    // A model that cannot render or tokenize now (disposed, a template that throws) fails the first turn with its typed error; until then, every tool.
    if (!(error instanceof NarrowgaugeError)) throw error;
    chosen = { documented: given.tools, shortlist: everyTool(given.tools, null, budget) };
  }
  const { documented, shortlist } = chosen;
  const shown = new Set(shortlist.shown);
  const registry = shortlist.left.length === 0 ? given : new ToolRegistry(adopted.filter((tool) => shown.has(given.naming.model(tool.name))));
  const { system, functions } = prelude(documented);
  const original = (name: string) => given.naming.original(name);
  return {
    registry,
    given,
    shortlist: { ...shortlist, shown: shortlist.shown.map(original), left: shortlist.left.map((entry) => ({ ...entry, name: original(entry.name) })), minimal: shortlist.minimal.map(original) },
    functions,
    history: initialHistory(system, config.task),
    earlier: [],
    exchanges: [1],
    dropped: 0,
    held: undefined,
    resultUnshown: false,
    granted: new Set(),
  };
}

/** Whether a tool is off by its own definition, as of this turn: switched off, not available now, or needing approval where no one can be asked (no `approve`). */
const offForRun = (config: Pick<RunConfig, "approve">, tool: Tool) => tool.switchedOff === true || !availableNow(tool) || (config.approve === undefined && needsApproval(tool));

/** A tool's `available()`, asked now; one that throws is not available (it is the caller's code, and a turn must not fail on it). */
function availableNow(tool: Tool): boolean {
  try {
    return tool.available?.() !== false;
  } catch {
    return false;
  }
}

/** The history the prompt shows: the system message, then every exchange that has not left the prompt. */
export function shownHistory(conversation: Pick<Conversation, "history" | "exchanges" | "dropped">): readonly HistoryItem[] {
  const { history, exchanges, dropped } = conversation;
  return dropped === 0 ? history : [history[0]!, ...history.slice(exchanges[dropped])];
}

/** The run state the guards read before the next turn, derived from the question's records and the exchanges the prompt still shows. */
export function stateOf(question: Pick<Question, "config" | "conversation" | "recorder">, stalled = false, lowOnContext = false): RunState {
  const { config, conversation, recorder } = question;
  const earlier = conversation.earlier.slice(conversation.dropped);
  return config.registry.state(
    {
      task: config.task,
      earlier: { tasks: earlier.map((exchange) => exchange.task), calls: earlier.flatMap((exchange) => exchange.calls) },
      maxTurns: config.maxTurns,
      tools: conversation.registry.names.map((tool) => ({ ...conversation.registry.get(tool)!, name: tool })),
      toolRequirement: config.requireTool,
      gateBudget: config.gateBudget,
      inferSubjects: config.inferSubjects,
      structuredAnswer: config.answerSchema !== null,
      disabled: [
        ...config.disabledTools.map((tool) => conversation.registry.naming.model(tool)).filter((tool) => conversation.registry.get(tool) !== undefined),
        ...conversation.registry.tools.filter((tool) => offForRun(config, tool) && !config.disabledTools.includes(conversation.registry.naming.original(tool.name))).map((tool) => tool.name),
      ],
    },
    { turns: recorder.factsSoFar, judgements: recorder.judgementsSoFar },
    { stalled, lowOnContext },
  );
}

/** How a guard's question is sampled on a given turn: like the steps, in the question's session. */
export function judgementOptions(question: Pick<Question, "config" | "session">, turn: number): JudgementOptions {
  const { config } = question;
  return { turn, sampling: config.sampling, signal: config.signal, spy: config.spy, jumpForward: config.jumpForward, session: question.session };
}
