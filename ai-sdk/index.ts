/**
 * narrowgauge/ai-sdk: an AI SDK provider that runs a narrowgauge model in
 * this process, every step guarded. `ai` and `@ai-sdk/provider` are
 * optional peers: an app that does not import this entry installs neither.
 */
export { createNarrowgauge, type NarrowgaugeProviderOptions } from "./narrowgauge-model.js";
