/**
 * narrowgauge's public API that runs anywhere: the loop, conversations,
 * tools, guards, grammars, the model port and its errors. The Node entry
 * (`narrowgauge`) and the page's (`narrowgauge/browser`) both export it, each
 * with its own ways to load a model.
 */

// The agent loop
export { runAgent } from "./runtime/loop/run-agent.js";
export { spyFirstTurn, type FirstTurn } from "./runtime/loop/start-question.js";
export type { StepField } from "./runtime/loop/step-text-stream.js";
export { RUN_DEFAULTS, type RunAgentOptions } from "./runtime/loop/run-config.js";
export { RUN_OPTIONS, SAMPLING_FIELDS } from "./runtime/loop/options/run-options.js";
export type { FlagShape, OptionDeclaration } from "./runtime/loop/options/option-kinds.js";
export { NATIVE_STRATEGY, type StepRequest, type TurnStrategy } from "./runtime/loop/turn-strategy.js";
export { createAgentSession, type AgentSession, type AgentSessionOptions, type AskOptions } from "./runtime/loop/agent-session.js";
export { MODEL_FAILURE_CODES } from "./runtime/loop/run-types.js";
export type { AnsweredRun, DroppedExchanges, ModelFailureCode, RunEndReason, RunEvent, RunRecord, RunResult, RunStatus, ToolCallRecord, TurnRecord, UnansweredRun } from "./runtime/loop/run-types.js";
export type { ToolShortlist } from "./runtime/tools/tool-shortlist.js";
export { rankTools, type ToolRelevance } from "./runtime/tools/tool-relevance.js";
export type { Judgement } from "./runtime/judgements/ask-judgement.js";
export type { Verdict } from "./guards/built-in/a3-verdict.js";
export { DEFAULT_SYSTEM_PROMPT, NATIVE_CALL_ONLY_SYSTEM_PROMPT, NATIVE_SYSTEM_PROMPT } from "./prompts/model-text.js";
export { CODEC_NAMES, type CodecName } from "./runtime/codec/step-codec.js";
export { CodecUnavailableError } from "./runtime/codec/choose-codec.js";
/** Every sentence narrowgauge writes that the model reads (see prompts/model-text.ts). */
export * as MODEL_TEXT from "./prompts/model-text.js";

// Tools
export { defineTool, type ForeignToolDefinition, type StandardParams, type Tool, type ToolAnnotations, type ToolContext, type ToolDefinition } from "./runtime/tools/define-tool.js";
export { adoptTools, type AiSdkToolLike, type OpenAIFunctionTool, type ToolsInput } from "./runtime/tools/foreign/foreign-tools.js";
export type { ParsedArgs } from "./runtime/tools/foreign/foreign-schema.js";
export { ToolRegistry, type ExecuteOptions } from "./runtime/tools/tool-registry.js";
export { ToolDefinitionError } from "./runtime/tools/tool-definition-error.js";
export { destructiveReason, needsApproval, readsAsDestructive, type Approval, type ApprovalRequest, type Approve } from "./runtime/tools/tool-approval.js";
export type { Observation, ToolFailureCode } from "./runtime/tools/tool-observation.js";
export { chatModelFunctions } from "./runtime/llama-cpp/llama-chat-functions.js";
export { modelFacingName } from "./runtime/tools/tool-names.js";

// Models
export { ModelDisposedError, ModelFileNotFoundError, ModelLoadError } from "./runtime/engine/model-errors.js";
export { GrammarRejectedError } from "./runtime/engine/model-errors.js";
export { ChatTemplateError } from "./runtime/template/chat-template-error.js";
export type { CallPart, DocumentedFunctions, HistoryItem, ModelItem, SystemItem, UserItem } from "./base/chat-history.js";
export type { ChatRenderer } from "./runtime/engine/chat-renderer.js";
export { chatRendererOf } from "./runtime/llama-cpp/chat-renderer-of.js";
export type { GenerateRequest, GenerationPurpose, GenerationStopReason, JumpForwardMode, ModelDescription, ModelPort, ModelSession, PortGeneration, ServerFailover, WritableStep } from "./runtime/engine/model-port.js";
export { ContextOverflowError } from "./runtime/engine/context-overflow.js";
export { decodeUnderGrammar, type DecodedGeneration, type DecodeOptions } from "./runtime/engine/decode/decode-under-grammar.js";
export type { DecodeEngine, EngineSampler, SamplerSettings } from "./runtime/engine/decode/decode-engine.js";
export type { SpanAcceptor, SpanVocabulary } from "./runtime/engine/decode/jump-forward.js";
export { GREEDY, type Sampling, type SamplingPreset } from "./runtime/engine/sampling.js";
export { SAMPLING_PRESETS } from "./runtime/engine/sampling-presets.js";

// Rendering a prompt, and what a generation can go wrong with
export { renderPrompt } from "./runtime/history/render-history.js";
export {
  AbortedOutputError,
  InvalidUtf8OutputError,
  OutputError,
  SchemaViolationError,
  TruncatedOutputError,
  UnknownToolOutputError,
  UnparseableOutputError,
  InexactNumberOutputError,
} from "./runtime/engine/output-errors.js";

// Step schema and grammar
export { buildStepSchema, EmptyStepError, FINAL_ANSWER, stepParts, stepSchemaOf, ToolNameError, type Step, type StepParts, type StepSchema, type StepSchemaOptions } from "./schemas/step-schema.js";
export { compileGbnf, type GbnfCompileOptions } from "./schemas/gbnf-compiler.js";
export { KEYWORD_DEFINITIONS, KEYWORD_SUPPORT, type KeywordDefinition, type KeywordSupport } from "./schemas/keyword-support.js";
export { UnsupportedSchemaError } from "./schemas/unsupported-schema-error.js";
export { normalizeSchema, REF_DEPTH, type NormalizedSchema } from "./schemas/dialects/normalize-schema.js";
export { readDialect, type DialectReading, type SchemaDialect } from "./schemas/dialects/schema-dialect.js";
export { NarrowgaugeError } from "./base/narrowgauge-error.js";
export { ConfigurationError } from "./base/configuration-error.js";

// Guards: profiles, and writing your own
export { PROFILES, PROFILE_NAMES, type GuardProfile, type GuardSetting, type ProfileName } from "./guards/profiles.js";
export { BUILT_IN_GUARDS } from "./guards/built-in/guard-list.js";
export { GuardRegistry } from "./guards/guard-registry.js";
export {
  defineGuard,
  GUARD_STAGES,
  type CallVerdict,
  type Decision,
  type DecisionKind,
  type FinalCheck,
  type FinalOutcome,
  type FinalJudgementRequest,
  type FinalVerdict,
  type Guard,
  type GuardDecision,
  type GuardStage,
  type JudgementRequest,
  type ProposedCall,
  type ProposedFinal,
  type RecordedCall,
  type Refusal,
  type SampledInput,
  type TurnGo,
  type View,
  type ViewOutcome,
} from "./guards/guard.js";
export type { CallAttempt, CallCheck, RunRecords, RunSetting, RunState, ToolInfo, TurnCheck, TurnFacts } from "./guards/run-state.js";
export { decisionEffect, describeDecision } from "./guards/describe-decision.js";
export type { Misattribution } from "./guards/facts/misattribution.js";
export type { SubjectValues } from "./schemas/answer-narrowing.js";

// A guarded step of a conversation the caller holds, as OpenAI-compatible front doors take one (docs/serving.md).
export { guardedStep, type GuardedOutcome, type GuardedStepOptions, type GuardedStepResult } from "./runtime/compatible/guarded-step.js";
export { structuredReply, type StructuredReply, type StructuredReplyOptions } from "./runtime/compatible/structured-reply.js";
export { ChatRequestError } from "./runtime/compatible/chat-request-error.js";
export { checkMessages, checkShape, type ChatMessage, type ChatTool, type ToolChoice } from "./runtime/compatible/chat-messages.js";
export { EXTENSION_KEYWORD } from "./runtime/compatible/declared-tools.js";
export { isFailedResult } from "./runtime/compatible/read-conversation.js";
export { StepFailedError } from "./runtime/compatible/step-failed-error.js";
export { replyOfJson, replyOfStep, stepReport, type StepReply } from "./runtime/compatible/step-reply.js";
export { freeStrings, smallerCaps, stepCaps, type StepCaps } from "./runtime/compatible/step-caps.js";
