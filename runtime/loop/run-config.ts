import { guardPipeline } from "../../guards/guard-list.js";
import type { Guard } from "../../guards/guard.js";
import { PROFILES, profileForParameters, type GuardProfile, type ProfileName } from "../../guards/profiles.js";
import { STEP_DEFAULTS } from "../../schemas/step-schema.js";
import { DEFAULT_SYSTEM_PROMPT } from "../history/history-items.js";
import type { ModelPort } from "../model/model-port.js";
import type { Sampling } from "../model/sampling.js";
import type { Tool } from "../tools/define-tool.js";
import type { RunEvent } from "./run-types.js";

export interface RunAgentOptions {
  /** The model: `await loadModel(…)`, `scriptedModel(…)` from narrowgauge/testing, or your own ModelPort. */
  model: ModelPort;
  tools: readonly Tool[];
  task: string;
  /** System prompt. Defaults to DEFAULT_SYSTEM_PROMPT. The chat wrapper appends the tool documentation. */
  system?: string;
  /** Turn budget. Defaults to 8. */
  maxTurns?: number;
  /**
   * The guard profile: "sub1b" (the full stack), "mid", "large", "none"
   * (architecture B: no thought, no guards), or a custom GuardProfile.
   * Defaults to the profile for the model's parameter count (sub1b when unknown).
   */
  profile?: ProfileName | GuardProfile;
  /** Your own guards, run with the built-in ones (each after the built-in guards of its stage). Defaults to none. */
  guards?: readonly Guard[];
  /**
   * Whether the answer must rest on a tool result. "always": FinalAnswer
   * waits for a successful call (G2). "never". "auto": one constrained
   * question before the first step (A2) decides; a fresh question then
   * hides FinalAnswer (sub1b) or is checked by the verdict call (mid, large).
   * Defaults to "always".
   */
  requireTool?: "always" | "never" | "auto";
  /**
   * How past steps are shown: "native" (the model's own function calls and
   * results) or "digest" (architecture A: one plain-text summary rebuilt each
   * turn). Defaults to "native"; "digest" exists to measure it.
   */
  history?: "native" | "digest";
  /** Architecture A's two calls per step: pick the tool, then fill its arguments. Defaults to false. */
  twoPhase?: boolean;
  /** Nudges the answer gate may send per run (A4). Defaults to 2. */
  gateBudget?: number;
  /** Tools documented to the model but never offered this run (A5). Defaults to none. */
  disabledTools?: readonly string[];
  /** Defaults to 200 code points. */
  thoughtMaxLength?: number;
  /** Defaults to 400 code points. */
  answerMaxLength?: number;
  /** Cap on tokens sampled per step. Defaults to 1024. */
  maxTokensPerStep?: number;
  /** Defaults to the model family's documented sampling (`model.description.sampling`): greedy unless its authors say otherwise. Pass GREEDY for greedy. */
  sampling?: Sampling;
  /** Per-call tool timeout unless the tool sets its own. Defaults to 10 000 ms. */
  toolTimeoutMs?: number;
  /** Tool results whose JSON is longer are truncated with a marker. Defaults to 2000 characters. */
  maxResultChars?: number;
  /** Append a one-line note after an unusable output. Defaults to true; without it the next prompt may repeat (G9 then escalates). */
  feedbackOnInvalid?: boolean;
  /** Record the exact prompt and grammar of every turn (the prompt spy). Defaults to false. */
  spy?: boolean;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

/** runAgent's defaults, each written once. */
export const RUN_DEFAULTS = {
  system: DEFAULT_SYSTEM_PROMPT,
  maxTurns: 8,
  requireTool: "always",
  history: "native",
  twoPhase: false,
  gateBudget: 2,
  thoughtMaxLength: STEP_DEFAULTS.thoughtMaxLength,
  answerMaxLength: STEP_DEFAULTS.answerMaxLength,
  maxTokensPerStep: 1024,
  toolTimeoutMs: 10_000,
  maxResultChars: 2000,
  feedbackOnInvalid: true,
  spy: false,
} as const;

/** A run's options with every default resolved: what the loop reads, and nothing else. */
export interface RunConfig {
  model: ModelPort;
  tools: readonly Tool[];
  task: string;
  system: string;
  maxTurns: number;
  profileName: ProfileName | "custom";
  profile: GuardProfile;
  /** The guards this run uses, in the order they run (built-in ones switched on by the profile, then the caller's). */
  guards: readonly Guard[];
  requireTool: "always" | "never" | "auto";
  history: "native" | "digest";
  twoPhase: boolean;
  gateBudget: number;
  disabledTools: readonly string[];
  thoughtMaxLength: number;
  answerMaxLength: number;
  maxTokensPerStep: number;
  sampling: Sampling;
  toolTimeoutMs: number;
  maxResultChars: number;
  feedbackOnInvalid: boolean;
  spy: boolean;
  /** The caller's signal, or one that never fires. */
  signal: AbortSignal;
  onEvent: ((event: RunEvent) => void) | undefined;
}

function resolveProfile(option: RunAgentOptions["profile"], model: ModelPort): { name: ProfileName | "custom"; profile: GuardProfile } {
  if (typeof option === "object") return { name: "custom", profile: option };
  const name = option ?? (model.description.parameters ? profileForParameters(model.description.parameters) : "sub1b");
  if (!Object.hasOwn(PROFILES, name)) throw new RangeError(`unknown profile ${JSON.stringify(name)}; known: ${Object.keys(PROFILES).join(", ")}`);
  return { name, profile: PROFILES[name] };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer: ${value}`);
  return value;
}

/** Resolves runAgent's options once. Throws (RangeError) only for options that cannot mean anything. */
export function resolveRunConfig(options: RunAgentOptions): RunConfig {
  const { name, profile } = resolveProfile(options.profile, options.model);
  const defaults = RUN_DEFAULTS;
  return {
    model: options.model,
    tools: options.tools,
    task: options.task,
    system: options.system ?? defaults.system,
    maxTurns: positiveInteger("maxTurns", options.maxTurns ?? defaults.maxTurns),
    profileName: name,
    profile,
    guards: guardPipeline(profile, options.guards),
    requireTool: options.requireTool ?? defaults.requireTool,
    history: options.history ?? defaults.history,
    twoPhase: options.twoPhase ?? defaults.twoPhase,
    gateBudget: options.gateBudget ?? defaults.gateBudget,
    disabledTools: options.disabledTools ?? [],
    thoughtMaxLength: options.thoughtMaxLength ?? defaults.thoughtMaxLength,
    answerMaxLength: options.answerMaxLength ?? defaults.answerMaxLength,
    maxTokensPerStep: positiveInteger("maxTokensPerStep", options.maxTokensPerStep ?? defaults.maxTokensPerStep),
    sampling: options.sampling ?? options.model.description.sampling.sampling,
    toolTimeoutMs: options.toolTimeoutMs ?? defaults.toolTimeoutMs,
    maxResultChars: options.maxResultChars ?? defaults.maxResultChars,
    feedbackOnInvalid: options.feedbackOnInvalid ?? defaults.feedbackOnInvalid,
    spy: options.spy ?? defaults.spy,
    signal: options.signal ?? new AbortController().signal,
    onEvent: options.onEvent,
  };
}
