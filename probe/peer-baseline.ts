import { chatModelFunctions, DEFAULT_SYSTEM_PROMPT, openLlamaChatSession, RUN_DEFAULTS, ToolRegistry, type LlamaChatSession, type LlamaModelPort, type RunEvent, type RunResult, type Sampling, type Tool } from "../index.js";
import { PeerRecorder } from "./peer-recorder.js";

export interface PeerRunOptions {
  model: LlamaModelPort;
  tools: readonly Tool[];
  task: string;
  maxTurns: number;
  sampling?: Sampling;
  maxTokensPerStep?: number;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

/** A call-shaped name in free text that is not a tool: `weather_api({…})` or `"name": "weather_api"`. */
const CALL_SHAPES = [/([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*\{/g, /"name"\s*:\s*"([A-Za-z_][A-Za-z0-9_]*)"/g];

export function inventedToolNames(text: string, known: readonly string[]): string[] {
  const names = CALL_SHAPES.flatMap((pattern) => Array.from(text.matchAll(pattern), (match) => match[1]!));
  return [...new Set(names.filter((name) => !known.includes(name)))];
}

/**
 * Architecture P, the peer baseline: node-llama-cpp's own function calling
 * (LlamaChat with `functions`), the free-text loop most projects run today.
 * No step grammar, no thought, no guards: the model writes text, and may
 * call a function in its wrapper's syntax; any reply without a call is the
 * answer. Each model response is one turn. The result has runAgent's shape so
 * the probe scores both the same way.
 */
export async function runPeerBaseline(options: PeerRunOptions): Promise<{ result: RunResult; inventedToolNames: string[] }> {
  const { model, task, maxTurns, signal } = options;
  const registry = new ToolRegistry(options.tools);
  // Handler-less functions, documented as narrowgauge documents them: the calls come back to us and run through the same registry.
  const functions = chatModelFunctions(options.tools, { finalAnswer: false });
  // A sequence of its own for the run, as runAgent's runs have.
  const lease = await model.opened.sequences.acquire(signal).catch(() => null);
  if (!lease) return { result: new PeerRecorder(task, model.description, options.onEvent).end("aborted"), inventedToolNames: [] };
  const run = new PeerRecorder(task, model.description, options.onEvent);
  const invented = new Set<string>();
  let chat: LlamaChatSession | undefined;
  try {
    chat = await openLlamaChatSession(model.opened, lease.item, { system: DEFAULT_SYSTEM_PROMPT, task, functions });
    for (let index = 1; index <= maxTurns; index++) {
      if (signal?.aborted) return { result: run.end("aborted"), inventedToolNames: [...invented] };
      const turn = run.startTurn(index, registry.names);
      const started = performance.now();
      const reply = await chat.reply({
        maxTokens: options.maxTokensPerStep ?? RUN_DEFAULTS.maxTokensPerStep,
        temperature: options.sampling?.temperature ?? 0,
        seed: options.sampling?.seed,
        topK: options.sampling?.topK,
        topP: options.sampling?.topP,
        signal,
      });
      const { call } = reply;
      turn.raw = reply.text + (call ? `${JSON.stringify(call.raw)}` : "");
      turn.prompt = { tokens: reply.tokens.context, evaluated: reply.tokens.evaluated, appended: null };
      turn.generatedTokens = reply.tokens.generated;
      turn.decoding = { evaluations: turn.generatedTokens, forcedTokens: 0 };
      turn.ms.sampling = performance.now() - started;
      for (const name of inventedToolNames(reply.text, registry.names)) invented.add(name);
      if (!call) {
        turn.step = { call: { tool: "FinalAnswer", answer: reply.text } };
        turn.check = "ok";
        run.commit(turn);
        if (reply.aborted) return { result: run.end("aborted"), inventedToolNames: [...invented] };
        return { result: run.end("final-answer", { answer: reply.text.trim() }), inventedToolNames: [...invented] };
      }
      const toolStarted = performance.now();
      const observation = await registry.execute(call.name, call.params, {
        signal: signal ?? new AbortController().signal,
        turn: index,
        timeoutMs: RUN_DEFAULTS.toolTimeoutMs,
        maxResultChars: RUN_DEFAULTS.maxResultChars,
      });
      turn.ms.tool = performance.now() - toolStarted;
      turn.check = observation.ok ? "ok" : observation.code === "bad-arguments" ? "bad-arguments" : "error";
      turn.step = { call: { tool: call.name, args: call.params } };
      const failure = observation.ok ? null : { code: observation.code, message: observation.result.error };
      turn.tool = { name: call.name, args: call.params, ok: observation.ok, result: observation.result, failure };
      chat.answerCall(observation.result);
      run.commit(turn);
    }
    return { result: run.end("max-turns"), inventedToolNames: [...invented] };
  } catch (error) {
    return { result: run.end(signal?.aborted ? "aborted" : "model-error", { error }), inventedToolNames: [...invented] };
  } finally {
    chat?.dispose();
    lease.release();
  }
}
