import type { LlamaText } from "node-llama-cpp";
import type { ChatRenderer } from "./chat-renderer.js";
import type { Sampling, SamplingPreset } from "./sampling.js";
import type { StepEnd } from "./decode/step-end.js";

/** Why a generation stopped; a closed set. */
export type GenerationStopReason = "grammar-complete" | "end-of-generation" | "max-tokens" | "aborted";

/** What a run reports about its model. */
export interface ModelDescription {
  name: string;
  /** The GGUF path, or null for a model that is not a file (scripted, your own port). */
  file: string | null;
  /** The chat wrapper that renders the native history, e.g. "ChatML", "Llama2Chat". */
  wrapper: string;
  threads: number | null;
  /** True for the built-in random-weight model. */
  builtIn: boolean;
  /** Parameter count, when known (it picks the default guard profile). */
  parameters: number | null;
  /** How this model's family says to sample (greedy unless its authors document otherwise); runAgent's default. */
  sampling: SamplingPreset;
  /** Tokens one session can hold (prompt plus sampled tokens), or null when unbounded. */
  contextSize: number | null;
  /** How many sessions (runs) can hold the model at once, more waiting their turn; null when unlimited. */
  sessions: number | null;
  /**
   * Whose loop decodes a step: "narrowgauge" (decodeUnderGrammar, in this
   * process or page: text the grammar forces is written by jump-forward and
   * the sampler is steered to the few tokens it allows) or "llama-server"
   * (the server samples every token under the grammar itself: it cannot be
   * handed tokens, so there is neither jump-forward nor steering, whatever
   * `jumpForward` says). Absent for a model that writes outputs by rule.
   */
  decoder?: "narrowgauge" | "llama-server";
  /** For a model served by llama-server: the servers' URLs and their builds (absent in process). */
  server?: { urls: string[]; builds: string[] };
}

export interface GenerateRequest {
  prompt: readonly number[];
  /** GBNF text the output must match. */
  gbnf: string;
  /** Where the grammar's text ends, so generation stops on its last character. Defaults to the end of one JSON value. */
  end?: StepEnd;
  maxTokens: number;
  sampling?: Sampling;
  signal?: AbortSignal;
  /** What the generation is for (see GenerationPurpose); backends that sample under the grammar ignore it. */
  purpose?: GenerationPurpose;
  /** Called with each piece of text as it is sampled (a token, or more), in order; the pieces join to the generation's text. */
  onText?: (piece: string) => void;
  /** How text the grammar forces is written; default "batched". Backends that cannot choose the next tokens sample them. */
  jumpForward?: JumpForwardMode;
  /**
   * The control tokens the step's call frame holds, by their texts (Phi-4's
   * `<|tool_call|>`): written as those tokens where the grammar's frame has
   * them, banned everywhere else (see FrameTokens). Only a model whose port
   * says it writes them (`writesControlToken`) is handed any.
   */
  frameTokens?: readonly string[];
}

/** A step as a codec writes it: the thought, then the call (a tool and its arguments, or FinalAnswer and its answer). */
export interface WritableStep {
  thought?: string;
  call: { tool: string; args?: unknown; answer?: string };
}

/**
 * What a generation is for: a turn's step, or one of the answer gate's
 * judgements. A model sampled under the grammar needs none of it (its
 * prompt and grammar say everything); a model that writes outputs by rule
 * reads it: the scripted model (which script an output comes from; a step
 * object is written the way the run's codec writes steps), the
 * distillation oracle (what the turn offers).
 */
export type GenerationPurpose =
  | { kind: "step"; turn: number; visible: { tools: readonly string[]; final: boolean }; encodeStep: (step: WritableStep) => string }
  | { kind: "judgement"; turn: number; judgement: string };

/**
 * Jump-forward (text the grammar forces, such as a step's skeleton between
 * its free fields, written without sampling, tokenized as the tokenizer
 * writes it): "batched" evaluates each forced span in one batch with the
 * token before it; "unbatched" writes the same tokens with one evaluation
 * each (what it saves, measured; the same output); "off" samples every token.
 */
export type JumpForwardMode = "batched" | "unbatched" | "off";

export interface PortGeneration {
  text: string;
  stopReason: GenerationStopReason;
  generatedTokens: number;
  prompt: { tokens: number; evaluated: number };
  ms: { prompt: number; sampling: number };
  /** The sampled token ids, where the backend has them (in process). */
  tokens?: readonly number[];
  /** Of generatedTokens, how many the grammar forced (jump-forward wrote them); 0 where nothing was forced. */
  forcedTokens?: number;
  /** Model evaluations the generation took; generatedTokens where the backend does not say. */
  decodes?: number;
  /** For a served generation: the server that answered, and the servers that failed under it first, in order (each moved the session on). */
  server?: { url: string; failovers: readonly ServerFailover[] };
}

/** A server failed under a generation, and the run's session moved to another server of its group, where the step was sent again. */
export interface ServerFailover {
  /** The server that failed. */
  readonly from: string;
  /** How: unreachable, timeout, connection-lost, or http (a 5xx). */
  readonly kind: string;
  readonly message: string;
  /** Milliseconds from the generation's start until the failure was known. */
  readonly ms: number;
}

/**
 * One run's hold on a model: generations in it share a KV cache that no other
 * session touches, so each turn reuses the previous prompt. Close it when the
 * run ends.
 */
export interface ModelSession {
  /**
   * Never throws for what the model writes (that comes back as text and a
   * stop reason); throws only when the model cannot be run, and
   * ContextOverflowError before it runs when the prompt plus `maxTokens`
   * would not fit the context (`description.contextSize`). Returns promptly
   * (stop reason "aborted") once the request's signal fires, even in the
   * middle of a long prompt evaluation.
   */
  generate(request: GenerateRequest): Promise<PortGeneration>;
  close(): void;
}

/**
 * The loop's only view of a model: render (through the model's own chat
 * wrapper), tokenize, and sample one value under a grammar. Implementations:
 * node-llama-cpp in process (`loadModel`), llama-server (`connectServer`),
 * wllama in a page (`narrowgauge/browser`) and the scripted model
 * (`narrowgauge/testing`); implement it to run the loop on any other
 * backend (`decodeUnderGrammar` runs the decode loop over an engine of
 * yours).
 */
export interface ModelPort {
  readonly description: ModelDescription;
  /** Renders chat history in the model's own format (a node-llama-cpp chat wrapper adapts with `chatRendererOf`). */
  readonly chatRenderer: ChatRenderer;
  tokenize(text: LlamaText): readonly number[];
  /** The exact prompt text with special tokens visible (the prompt spy). */
  detokenizeForSpy(tokens: readonly number[]): string;
  /**
   * Whether a generation can write this token where a call frame holds it
   * (GenerateRequest.frameTokens): a control token that does not end
   * generation. Absent where the backend cannot let one through only there
   * (a served model): a format whose frame holds one is then not native.
   */
  writesControlToken?(token: number): boolean;
  /**
   * A session of its own for one run. Concurrent runs each get one while
   * there are free ones and wait, in order, when there are none; the wait
   * ends (rejects) when the signal fires.
   */
  openSession(signal?: AbortSignal): Promise<ModelSession>;
  /** One generation in a session opened and closed for it. */
  generate(request: GenerateRequest): Promise<PortGeneration>;
  /**
   * Parses a grammar as this model's sampler will, rejecting with
   * GrammarRejectedError when it cannot; runAgent asks it of every tool's
   * grammar before the first model call. Absent: grammars are trusted.
   */
  checkGrammar?(gbnf: string): Promise<void>;
}
