import { getLlama, type LlamaGrammar } from "node-llama-cpp";
import type { FileJudgement } from "./judge-pool.js";
import { TIMING_HEADER, timingRow } from "./maskbench-report.js";

/**
 * narrowgauge's grammars through llama.cpp's own parser (as
 * bench/corpus/run-corpus.ts does): how long createGrammar takes, which
 * grammars it refuses, and whether its test of a complete match
 * (LlamaGrammar._testText, internal) agrees with narrowgauge's matcher on
 * each instance's text. Runs in the main thread, after the workers, without
 * their time limit.
 */
export interface LlamaCheck {
  grammars: number;
  createMs: number[];
  refused: Array<{ name: string; message: string }>;
  compared: number;
  disagreements: Array<{ name: string; text: string; narrowgauge: boolean; llama: boolean }>;
}

type TestableGrammar = LlamaGrammar & { _testText(text: string): boolean };

export async function checkWithLlama(results: readonly FileJudgement[]): Promise<LlamaCheck> {
  const llama = await getLlama({ gpu: false, build: "never" });
  const check: LlamaCheck = { grammars: 0, createMs: [], refused: [], compared: 0, disagreements: [] };
  for (const { name, judgement } of results) {
    if (judgement.gbnf === undefined) continue;
    check.grammars++;
    const start = performance.now();
    let grammar: TestableGrammar;
    try {
      grammar = (await llama.createGrammar({ grammar: judgement.gbnf })) as TestableGrammar;
    } catch (error) {
      check.refused.push({ name, message: (error as Error).message });
      continue;
    }
    check.createMs.push(performance.now() - start);
    for (const instance of judgement.instances) {
      check.compared++;
      const accepted = grammar._testText(instance.text);
      if (accepted !== instance.writable) check.disagreements.push({ name, text: instance.text.slice(0, 200), narrowgauge: instance.writable, llama: accepted });
    }
  }
  return check;
}

export function llamaReport(check: LlamaCheck): string {
  const lines = [
    `llama.cpp parsed ${check.createMs.length} of ${check.grammars} grammars; ${check.compared} instance texts compared, ${check.disagreements.length} verdicts differ from narrowgauge's matcher.`,
    "",
    `| ${TIMING_HEADER.join(" | ")} |`,
    `| :--- |${" ---: |".repeat(TIMING_HEADER.length - 1)}`,
    `| ${timingRow("llama.createGrammar (llama.cpp parses the GBNF)", check.createMs).join(" | ")} |`,
  ];
  for (const refusal of check.refused.slice(0, 20)) lines.push(`- refused by llama.cpp: ${refusal.name}: ${refusal.message.slice(0, 200)}`);
  for (const disagreement of check.disagreements.slice(0, 20)) lines.push(`- differs: ${disagreement.name}: narrowgauge ${disagreement.narrowgauge}, llama.cpp ${disagreement.llama}: ${disagreement.text}`);
  return lines.join("\n");
}
