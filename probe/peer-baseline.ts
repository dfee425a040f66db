import { LlamaChat, type ChatHistoryItem } from "node-llama-cpp";
import { chatModelFunctions, DEFAULT_SYSTEM_PROMPT, RUN_DEFAULTS, ToolRegistry, type LlamaModelPort, type RunEvent, type RunResult, type Sampling, type Tool } from "../index.js";
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
  const sequence = lease.item;
  const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: model.opened.chatWrapper, autoDisposeSequence: false });
  const run = new PeerRecorder(task, model.description, options.onEvent);
  const invented = new Set<string>();
  let history: ChatHistoryItem[] = [{ type: "system", text: DEFAULT_SYSTEM_PROMPT }, { type: "user", text: task }, { type: "model", response: [] }];
  const meter = sequence.tokenMeter;
  try {
    for (let index = 1; index <= maxTurns; index++) {
      if (signal?.aborted) return { result: run.end("aborted"), inventedToolNames: [...invented] };
      const turn = run.startTurn(index, registry.names);
      const before = { input: meter.usedInputTokens, output: meter.usedOutputTokens };
      const started = performance.now();
      const response = await chat.generateResponse(history, {
        functions,
        documentFunctionParams: true,
        maxParallelFunctionCalls: 1,
        maxTokens: options.maxTokensPerStep ?? RUN_DEFAULTS.maxTokensPerStep,
        temperature: options.sampling?.temperature ?? 0,
        seed: options.sampling?.seed,
        topK: options.sampling?.topK,
        topP: options.sampling?.topP,
        signal,
        stopOnAbortSignal: true,
      });
      const call = response.functionCalls?.[0];
      turn.raw = response.response + (call ? `${JSON.stringify(call.raw)}` : "");
      turn.prompt = { tokens: sequence.contextTokens.length, evaluated: meter.usedInputTokens - before.input, appended: null };
      turn.generatedTokens = meter.usedOutputTokens - before.output;
      turn.decoding = { evaluations: turn.generatedTokens, forcedTokens: 0 };
      turn.ms.sampling = performance.now() - started;
      for (const name of inventedToolNames(response.response, registry.names)) invented.add(name);
      history = response.lastEvaluation.cleanHistory;
      if (!call) {
        turn.step = { call: { tool: "FinalAnswer", answer: response.response } };
        turn.check = "ok";
        run.commit(turn);
        if (response.metadata.stopReason === "abort") return { result: run.end("aborted"), inventedToolNames: [...invented] };
        return { result: run.end("final-answer", { answer: response.response.trim() }), inventedToolNames: [...invented] };
      }
      const toolStarted = performance.now();
      const observation = await registry.execute(call.functionName, call.params, {
        signal: signal ?? new AbortController().signal,
        turn: index,
        timeoutMs: RUN_DEFAULTS.toolTimeoutMs,
        maxResultChars: RUN_DEFAULTS.maxResultChars,
      });
      turn.ms.tool = performance.now() - toolStarted;
      turn.check = observation.ok ? "ok" : observation.code === "bad-arguments" ? "bad-arguments" : "error";
      turn.step = { call: { tool: call.functionName, args: call.params } };
      const failure = observation.ok ? null : { code: observation.code, message: observation.result.error };
      turn.tool = { name: call.functionName, args: call.params, ok: observation.ok, result: observation.result, failure };
      const last = history.at(-1);
      if (last?.type === "model") {
        last.response.push({ type: "functionCall", name: call.functionName, params: call.params, result: observation.result, rawCall: call.raw });
      }
      run.commit(turn);
    }
    return { result: run.end("max-turns"), inventedToolNames: [...invented] };
  } catch (error) {
    return { result: run.end(signal?.aborted ? "aborted" : "model-error", { error }), inventedToolNames: [...invented] };
  } finally {
    chat.dispose({ disposeSequence: false });
    lease.release();
  }
}
