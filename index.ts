/**
 * narrowgauge: a grammar-first runtime for tool-using agents on small local
 * models. One entry point of named exports.
 */

// Step schema and grammar
export {
  buildStepSchema,
  EmptyStepError,
  FINAL_ANSWER,
  ToolNameError,
  type Step,
  type StepSchema,
  type StepSchemaOptions,
  type ToolCall,
  type ToolSchemaSpec,
} from "./schemas/step-schema.js";
export { compileGbnf, GBNF_REPETITION_LIMIT, type GbnfCompileOptions } from "./schemas/gbnf-compiler.js";
export { cachedGbnf } from "./schemas/grammar-cache.js";
export { KEYWORD_SUPPORT, POST_CHECK_KEYWORDS, type KeywordSupport } from "./schemas/keyword-support.js";
export { UnsupportedSchemaError } from "./schemas/unsupported-schema-error.js";
export { validateAgainst, validatorFor, type SchemaIssue } from "./schemas/validator-cache.js";

// Models and generation
export { openModel, defaultLlama, type ModelSource, type OpenModelOptions, type OpenedModel } from "./runtime/open-model.js";
export { ModelFileNotFoundError, ModelLoadError } from "./runtime/model-errors.js";
export { downloadModel, ModelDownloadError, type DownloadOptions } from "./runtime/model-download.js";
export { defaultThreads, SINGLE_THREAD_MODEL_BYTES } from "./runtime/threads.js";
export { GREEDY, type Sampling } from "./runtime/sampling.js";
export { generateUnderGrammar, type GenerateOptions, type Generation, type GenerationStopReason } from "./runtime/generate-under-grammar.js";
export { parseGeneration, type ParsedOutput } from "./runtime/parse-generation.js";
export { sampleValue, type SampleValueOptions, type SampledValue } from "./runtime/sample-value.js";
export { GrammarRejectedError, llamaGrammar } from "./runtime/llama-grammar-cache.js";
export { renderPrompt } from "./runtime/render-prompt.js";
export {
  AbortedOutputError,
  InvalidUtf8OutputError,
  OutputError,
  SchemaViolationError,
  TruncatedOutputError,
  UnparseableOutputError,
} from "./runtime/output-errors.js";
export { NarrowgaugeError } from "./runtime/narrowgauge-error.js";

// The built-in tiny model (random weights: it produces gibberish)
export { forgeTinyModel, TINY_MODEL_SHAPE } from "./runtime/tiny-model/forge-tiny-model.js";
export { DEFAULT_TINY_MODEL_SEED, narrowgaugeCacheDir, tinyModelFile } from "./runtime/tiny-model/tiny-model-file.js";
export { writeGguf, type GgufFile, type GgufTensor, type GgufValue } from "./runtime/tiny-model/gguf-writer.js";

// Tools and the agent loop
export { defineTool, type Tool, type ToolContext, type ToolDefinition } from "./runtime/define-tool.js";
export { ToolRegistry } from "./runtime/tool-registry.js";
export { runAgent, type RunAgentOptions } from "./runtime/run-agent.js";
export { DEFAULT_SYSTEM_PROMPT } from "./runtime/native-history.js";
export type { RunEndReason, RunEvent, RunResult, RunStatus, ToolCallRecord, TurnRecord } from "./runtime/run-types.js";
export type { GenerateRequest, ModelDescription, ModelPort, PortGeneration } from "./runtime/model-port.js";
export { llamaModelPort, loadModel, type LlamaModelPort } from "./runtime/llama-model-port.js";

// Guards: pure functions over the run state (SPEC G1–G9)
export { PROFILES, profileForParameters, type GuardProfile, type ProfileName } from "./guards/profiles.js";
export { decideView, guardPipeline } from "./guards/decide-view.js";
export { checkCall, type CallVerdict } from "./guards/check-call.js";
export { checkFinal, type FinalCheck, type FinalVerdict } from "./guards/check-final.js";
export { groundedNumbers, isGrounded } from "./guards/grounded-numbers.js";
export type { CallAttempt, CallCheck, Guard, GuardDecision, GuardName, RunState, ToolInfo, View } from "./guards/run-state.js";
