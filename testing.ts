/**
 * narrowgauge/testing: unit-test an agent with no GGUF. The scripted model
 * returns the outputs you give it, in order, through the same parsing and
 * validation as a real model.
 */
export {
  scriptedModel,
  ScriptExhaustedError,
  ScriptedToolError,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedOutput,
  type ScriptedStep,
  type TypedScriptOptions,
} from "./runtime/backends/scripted/scripted-model.js";
