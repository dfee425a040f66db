import { commonPrefixLength } from "../common-prefix.js";
import type { GenerateRequest, GenerationStopReason, PortGeneration } from "../model-port.js";
import { AllowedTokens } from "./allowed-tokens.js";
import type { DecodeEngine, EngineSampler } from "./decode-engine.js";
import { FrameTokens } from "./frame-tokens.js";
import { JumpForward } from "./jump-forward.js";
import { StepEndTracker } from "./step-end.js";
import { TextStreamer } from "./text-streamer.js";

export interface DecodeOptions {
  /** Whether the sampler is steered to the tokens the grammar allows where they are few (see AllowedTokens); default true. Off only for measuring. */
  steer?: boolean;
}

/** A generation in this process: the sampled token ids are always known. */
export type DecodedGeneration = PortGeneration & { tokens: number[]; forcedTokens: number; decodes: number };

/**
 * One generation under a grammar, on any engine (see DecodeEngine). The KV
 * cache keeps its common prefix with the prompt (at least one prompt token
 * is evaluated: its logits drive the first sample); the rest of a long
 * prompt is evaluated in batches, the signal checked between them. Then,
 * token by token: text the grammar forces is written by jump-forward and
 * evaluated in one batch with the token before it; otherwise the engine
 * samples, steered to the allowed tokens where they are few. Output is
 * streamed in whole characters; generation stops where the step's text ends
 * (`request.end`), at `maxTokens`, when the model ends it, or when the
 * signal fires. A forced span that ends the step is evaluated too, so the
 * KV cache holds the whole step the next prompt shows.
 *
 * Never throws for what the model writes; an engine failure is rethrown
 * after the cache is forgotten (what it holds is then unknown).
 */
export async function decodeUnderGrammar(engine: DecodeEngine, request: GenerateRequest, options: DecodeOptions = {}): Promise<DecodedGeneration> {
  try {
    return await decode(engine, request, options);
  } catch (error) {
    await engine.eraseFrom(0).catch(() => undefined);
    throw error;
  }
}

async function decode(engine: DecodeEngine, request: GenerateRequest, options: DecodeOptions): Promise<DecodedGeneration> {
  const { prompt, maxTokens, signal } = request;
  const started = performance.now();
  const held = engine.held();
  const common = commonPrefixLength(held, prompt, Math.min(held.length, prompt.length - 1));
  if (common < held.length) await engine.eraseFrom(common);
  let pending = prompt.slice(common);
  while (pending.length > engine.batchSize && !signal?.aborted) {
    await engine.evaluate(pending.slice(0, engine.batchSize));
    pending = pending.slice(engine.batchSize);
  }

  const tokens: number[] = [];
  let stopReason: GenerationStopReason;
  let firstTokenAt: number | undefined;
  const counts = { forcedTokens: 0, decodes: 0 };
  if (signal?.aborted) stopReason = "aborted";
  else if (maxTokens <= 0) stopReason = "max-tokens";
  else {
    const allowed = options.steer === false || !engine.pieces ? null : AllowedTokens.create(engine.pieces, request.gbnf);
    const frame = request.frameTokens?.length ? FrameTokens.create(engine.vocabulary, request.gbnf, request.frameTokens) : null;
    const sampler = await engine.sampler({ gbnf: request.gbnf, sampling: request.sampling ?? {}, steer: allowed && (() => allowed.next()), frame });
    try {
      const run = new Run(engine, sampler, request, tokens, allowed, frame, counts);
      stopReason = await run.loop(pending, () => (firstTokenAt ??= performance.now()));
    } finally {
      await sampler.close();
    }
  }
  const finished = performance.now();
  return {
    // Special tokens shown: the only ones a generation holds are a call frame's (every other control token is banned; a GGUF that lists no token types has none the backend can tell apart to ban).
    text: engine.vocabulary.detokenize(tokens, true),
    stopReason,
    generatedTokens: tokens.length,
    tokens,
    forcedTokens: counts.forcedTokens,
    decodes: counts.decodes,
    prompt: { tokens: prompt.length, evaluated: prompt.length - common },
    ms: { prompt: (firstTokenAt ?? finished) - started, sampling: finished - (firstTokenAt ?? finished) },
  };
}

/** One generation's token loop, after the prompt's prefill. */
class Run {
  private readonly tracker: StepEndTracker;
  private readonly jump: JumpForward | null;
  private readonly streamer: TextStreamer;

  constructor(
    private readonly engine: DecodeEngine,
    private readonly sampler: EngineSampler,
    private readonly request: GenerateRequest,
    private readonly tokens: number[],
    private readonly allowed: AllowedTokens | null,
    private readonly frame: FrameTokens | null,
    private readonly counts: { forcedTokens: number; decodes: number },
  ) {
    const { vocabulary } = engine;
    this.tracker = new StepEndTracker(request.end);
    const mode = request.jumpForward ?? "batched";
    this.jump = mode === "off" || !sampler.grammar ? null : JumpForward.create(vocabulary, request.gbnf, frame);
    // Whole characters of the output, in order: what the caller streams and what the matchers of jump-forward and the frame tokens follow.
    this.streamer = new TextStreamer((pieces, before) => vocabulary.detokenize(pieces, true, before), (piece) => {
      this.jump?.advance(piece);
      this.frame?.advance(piece);
      request.onText?.(piece);
    });
  }

  /** Samples and forces tokens from `pending` (the prompt's rest) on; returns why it stopped. */
  async loop(pending: readonly number[], sampled: () => void): Promise<GenerationStopReason> {
    const { request, tokens } = this;
    let before = pending;
    try {
      for (;;) {
        const span = this.forced();
        if (span) {
          this.counts.forcedTokens += span.tokens.length;
          const ends = this.emit(span.tokens) || span.ends;
          if (ends) {
            await this.evaluate(before, span.tokens);
            return "grammar-complete";
          }
          if (tokens.length >= request.maxTokens) return "max-tokens";
        }
        const token = await this.sampler.next(await this.batchOf(before, span?.tokens ?? []));
        this.counts.decodes++;
        sampled();
        if (token === null) return "end-of-generation";
        if (this.emit([token])) return "grammar-complete";
        if (request.signal?.aborted) return "aborted";
        if (tokens.length >= request.maxTokens) return "max-tokens";
        // Leaving after a sampled token leaves it unevaluated; the next prompt evaluates from the first token the cache does not hold.
        before = [token];
      }
    } finally {
      this.streamer.end();
    }
  }

  /** The span the grammar forces from here (null when none, or while a character is incomplete), already taken by the engine's grammar. */
  private forced() {
    if (this.streamer.waiting || !this.jump) return null;
    return this.jump.next(this.sampler.grammar!, this.tokens, this.request.maxTokens - this.tokens.length);
  }

  /** Appends tokens to the output; true when the step ended in them. */
  private emit(added: readonly number[]): boolean {
    const { tokens, engine } = this;
    for (const token of added) {
      const piece = engine.vocabulary.detokenize([token], true, tokens.slice(-8));
      tokens.push(token);
      this.allowed?.take(token);
      this.streamer.push(token);
      if (this.tracker.push(piece) >= 0) return true;
    }
    return false;
  }

  /**
   * What the sampler evaluates next: `before` (the prompt's rest, or the
   * token just sampled) and the forced tokens, as one batch; in the
   * unbatched mode the same tokens with one evaluation each (what sampling
   * them would cost), all but the last here.
   */
  private async batchOf(before: readonly number[], forced: readonly number[]): Promise<number[]> {
    if (this.request.jumpForward !== "unbatched" || forced.length === 0) return [...before, ...forced];
    if (before.length > 0) await this.evaluateCounted(before);
    for (const token of forced.slice(0, -1)) await this.evaluateCounted([token]);
    return forced.slice(-1);
  }

  /** A forced span that ends the output, evaluated without sampling after it. */
  private async evaluate(before: readonly number[], forced: readonly number[]): Promise<void> {
    await this.evaluateCounted(await this.batchOf(before, forced));
  }

  private async evaluateCounted(batch: readonly number[]): Promise<void> {
    await this.engine.evaluate(batch);
    this.counts.decodes++;
  }
}
