/**
 * MaskBench's own results, quoted from guidance-ai/jsonschemabench,
 * maskbench/README.md ("Performance Metrics", the table between GEN-BEGIN and
 * GEN-END, results of 2025-03-27; repository at ba103c73, 2026-02-12).
 * Times are microseconds. TTFM ("time to first mask") is grammar compilation
 * including the engine's token-mask setup, over schemas that did not raise,
 * a timeout counted as 900 s. "validation error": some valid instance
 * refused; "invalidation error": some invalid instance accepted.
 */
export const PUBLISHED_ENGINES = ["LLGuidance", "XGrammar", "llama.cpp", "XGrammar.cpp", "Outlines"] as const;

export const PUBLISHED_ROWS: ReadonlyArray<readonly [metric: string, values: readonly number[]]> = [
  ["schemas", [11_306, 11_306, 11_306, 11_306, 11_306]],
  ["passing", [8_909, 8_122, 6_505, 6_387, 7_050]],
  ["compile error", [2_377, 90, 1_301, 1_718, 1_773]],
  ["segmentation fault", [0, 37, 0, 1, 0]],
  ["out of memory", [0, 0, 0, 0, 188]],
  ["timeout", [0, 241, 1, 38, 60]],
  ["validation error", [20, 1_408, 2_850, 2_837, 1_415]],
  ["invalidation error", [0, 1_368, 649, 325, 822]],
  ["TTFM p50 (µs)", [1_037, 919_459, 312, 856_231, 587_900]],
  ["TTFM p75 (µs)", [1_534, 2_399_718, 621, 1_445_446, 4_281_360]],
  ["TTFM p99 (µs)", [17_988, 900_000_000, 28_558, 65_476_826, 413_111_222]],
];

export const PUBLISHED_VERSIONS = "llguidance 0.7.10, xgrammar 0.1.17, llama-cpp-python 0.3.8, outlines-core 0.2.3";
