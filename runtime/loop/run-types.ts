import type { Misattribution } from "../../guards/facts/misattribution.js";
import type { GuardDecision } from "../../guards/guard.js";
import type { ProfileName } from "../../guards/profiles.js";
import type { TurnCheck } from "../../guards/run-state.js";
import type { CodecName } from "../codec/step-codec.js";
import type { Judgement } from "../judgements/ask-judgement.js";
import type { ModelDescription } from "../engine/model-port.js";
import type { ToolShortlist } from "../tools/tool-shortlist.js";
import type { Approval } from "../tools/tool-approval.js";
import type { ToolFailureCode } from "../tools/tool-observation.js";
import type { StepField } from "./step-text-stream.js";

/** How a run ended; exactly one per run. */
export type RunStatus = "answered" | "failed" | "aborted";

/**
 * Why a run ended, a closed set:
 * - `final-answer`: the model gave a FinalAnswer.
 * - `max-turns`: the turn budget ran out without one.
 * - `stalled`: a turn's prompt and grammar were identical to the previous
 *   turn's, so under greedy decoding it would have repeated itself (G9).
 * - `context-overflow`: the next prompt plus the step's budget no longer fit
 *   the model's context; the run stops rather than let the start of the
 *   prompt (system prompt, tool list) be shifted out.
 * - `model-error`: the model could not be run (context gone, script exhausted…).
 * - `aborted`: the caller's signal fired.
 */
export type RunEndReason = "final-answer" | "max-turns" | "stalled" | "context-overflow" | "model-error" | "aborted";

/**
 * Why the model could not be run, a closed set: the prompt did not fit the
 * context, the scripted model ran out of outputs, llama.cpp refused the
 * grammar, the model was disposed under the run, a llama-server could not be
 * reached or answered wrongly (killed, timed out, garbage), or the generation
 * failed in the backend (a message says how).
 */
export const MODEL_FAILURE_CODES = ["context-overflow", "script-exhausted", "grammar-rejected", "model-disposed", "server-failed", "chat-template", "generation-failed"] as const;
export type ModelFailureCode = (typeof MODEL_FAILURE_CODES)[number];

export interface ToolCallRecord {
  name: string;
  args: unknown;
  ok: boolean;
  /** What the model was shown: the tool's JSON result, or `{ error }` (a repeat shows the ledger's answer). */
  result: unknown;
  /** Why the call did not succeed, from a closed set ("refused": a guard stopped it; see the turn's check); null when it succeeded. */
  failure: { code: ToolFailureCode; message: string } | null;
  /** What the person answered runAgent's `approve` for this call; absent when no one was asked (the tool needs no approval, or was approved `always` before). */
  approval?: Approval;
}

export interface TurnRecord {
  /** 1-based turn number. */
  index: number;
  /**
   * What the grammar allowed this turn: tool names, whether FinalAnswer could
   * appear, and parameter domains a guard narrowed ("Tool.param" → values).
   */
  visible: { tools: string[]; final: boolean; enums: Record<string, Array<string | number>> };
  /** Every guard decision this turn: those behind `visible`, then any refusal or answer-gate decision. */
  guards: GuardDecision[];
  /**
   * How the step was judged: "ok", "invalid" (unusable output), a call's
   * check ("ungrounded", "repeat", "banned", "outside-view", "bad-arguments",
   * "declined", "error"), or a final answer's ("hidden", "ungrounded",
   * "ungrounded-accepted"). Null when the turn never produced a step.
   */
  check: TurnCheck | null;
  /** For a final answer: numbers in it that no source supports. */
  ungrounded?: number[];
  /** For a final answer: known names (subject values) in it that neither the task nor a tool result names. */
  ungroundedNames?: string[];
  /** For a final answer: values stated beside a subject that none of their sources is about ("21 beside New York, from CityWeather(Sydney)"); such an answer is always sent back. */
  misattributed?: Misattribution[];
  /**
   * Prompt length in tokens, how many were evaluated (not already in the KV
   * cache), and how many come after what the session held from the turn
   * before (that prompt, and its step where the history shows it verbatim);
   * `appended` is null when the prompt does not extend those tokens (an
   * earlier part was rendered anew). `evaluated − appended` is what a turn
   * boundary cost.
   */
  prompt: { tokens: number; evaluated: number; appended: number | null };
  /** The sampled text, exactly. */
  raw: string;
  /** The parsed, validated step; null when the output failed to parse or validate. */
  step: { thought?: string; call: { tool: string; args?: unknown; answer?: string } } | null;
  /** The typed failure of this turn's output, when there was one. */
  failure: { code: string; message: string } | null;
  /** The tool call this turn made (executed, or rejected before running), if any; null for a call handed off. */
  tool: ToolCallRecord | null;
  /** The call passed every check and was handed to the caller to run, as a guarded step does (guardedStep); its result is the caller's. */
  handedOff?: true;
  generatedTokens: number;
  /**
   * How the step was decoded: model evaluations, and how many of the
   * generated tokens the grammar forced (jump-forward wrote them without
   * sampling). Evaluations ÷ generated tokens is what jump-forward saves.
   */
  decoding: { evaluations: number; forcedTokens: number };
  /** Milliseconds: rendering the prompt, compiling the grammar, evaluating the prompt, sampling, the tool, the whole turn. */
  ms: { render: number; grammar: number; prompt: number; sampling: number; tool: number; total: number };
  /**
   * For a served run: the server that sampled this step, and the failover
   * on the way, if any — the servers that failed under it, how, the
   * milliseconds until the last failure was known, and the prompt tokens the
   * new server then evaluated (its slot did not hold the run's cache).
   */
  server?: { url: string; failover: { from: string[]; kinds: string[]; ms: number; evaluated: number } | null };
  /** The prompt spy, when enabled: the exact prompt with special tokens visible, its token count, the grammar, and the codec the step was written in. */
  spy?: { prompt: string; tokens: number; grammar: string; codec: CodecName };
}

/**
 * Earlier exchanges of a conversation (a question, its steps and its
 * answer) that left the prompt before a turn, oldest first, because the
 * context could not hold them beside a step.
 */
export interface DroppedExchanges {
  /** The turn whose prompt first went without them. */
  turn: number;
  /** Their questions. */
  tasks: string[];
  /** Prompt tokens they took. */
  tokens: number;
  /** Prompt tokens before the first dropped one: the KV cache keeps these, and the prompt is evaluated from there on. */
  keptTokens: number;
  /** Numbers their questions and tool results stated that nothing the model still sees states: they ground no answer any more. */
  forgottenNumbers: number[];
}

/** What every run result holds, whatever its ending. */
export interface RunRecord {
  task: string;
  reason: RunEndReason;
  /** The guard profile the run used. */
  profile: ProfileName | "custom";
  /** How the run's steps were written (see RunAgentOptions.codec); "node-llama-cpp" for a run of node-llama-cpp's own function calling (the probe's peer baseline). */
  codec: CodecName | "node-llama-cpp";
  /** Present where the steps are JSON though the model's format has a call syntax of its own: why (a tool's parameters that syntax cannot write). */
  codecFallback?: string;
  /**
   * Whether FinalAnswer waited for a successful tool call: the `requireTool`
   * option as the run resolved it ("always" is true, "never" false, "auto"
   * what the freshness judgement decided).
   */
  toolRequired: boolean;
  /** The answer gate's model calls (freshness, verdicts), counted in the token and time totals. */
  judgements: Judgement[];
  turns: TurnRecord[];
  /** Earlier exchanges that left the prompt during this question (a conversation's ask); empty while the whole conversation fits. */
  dropped: DroppedExchanges[];
  /**
   * Which tools the prompt documented (the same every turn; each turn's
   * `visible.tools` is what it offered of them) and, where the tools'
   * share of the context could not hold them all, which were left out and why.
   */
  tools: ToolShortlist;
  model: ModelDescription;
  tokens: { prompt: number; evaluated: number; generated: number };
  ms: { total: number; render: number; grammar: number; prompt: number; sampling: number; tool: number; judgements: number };
}

/** A run that ended with an answer. */
export interface AnsweredRun extends RunRecord {
  status: "answered";
  reason: "final-answer";
  /** The answer's text; with runAgent's `answerSchema`, the JSON text of `output`. */
  answer: string;
  /** With runAgent's `answerSchema`: the answer, a value of that schema (checked by ajv); absent for a text answer. */
  output?: unknown;
  partialAnswer: null;
  /** Numbers in the answer that no source supports (only possible on a forced final). */
  ungroundedNumbers: number[];
  /** Known names in the answer that neither the task nor a tool result names (only possible on a forced final). */
  ungroundedNames: string[];
  /**
   * The answer stands on no tool result although the question needed one (a
   * tool was required, or judged needed, and none succeeded): A5's "answer
   * with what you know" case.
   */
  unverified: boolean;
  error: null;
}

/** A run that ended without an answer: never an invented one. */
export interface UnansweredRun extends RunRecord {
  status: "failed" | "aborted";
  answer: null;
  /** What the successful tool calls returned, and nothing else; null when there were none. */
  partialAnswer: string | null;
  ungroundedNumbers: [];
  ungroundedNames: [];
  unverified: false;
  /** Why the model could not be run, when reason is "model-error" or "context-overflow". */
  error: { code: ModelFailureCode; message: string } | null;
}

/** How a run ended: narrow on `status` ("answered" gives a string `answer`). */
export type RunResult = AnsweredRun | UnansweredRun;

/** Streamed as the run happens; the same information as the result. */
export type RunEvent =
  /** `tools`: the tools the prompt documents; `shortlist`: which were left out and why (see RunRecord.tools). */
  | { type: "run-start"; task: string; tools: string[]; shortlist: ToolShortlist; maxTurns: number; model: ModelDescription; codec: CodecName; codecFallback?: string }
  | { type: "turn-start"; index: number; visible: TurnRecord["visible"] }
  /** The thought, or a FinalAnswer's answer, as it is sampled: decoded text, a token or a few at a time. */
  | { type: "text"; index: number; field: StepField; text: string }
  | { type: "judgement"; judgement: Judgement }
  | { type: "step"; index: number; raw: string; step: TurnRecord["step"]; failure: TurnRecord["failure"] }
  | { type: "tool-start"; index: number; name: string; args: unknown }
  | { type: "tool-end"; index: number; tool: ToolCallRecord }
  | { type: "turn-end"; turn: TurnRecord }
  | { type: "run-end"; result: RunResult };
