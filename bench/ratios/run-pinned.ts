/**
 * npm run bench:ratios-pinned -- [model names] — bench:ratios's pinned
 * reference alone (pinned-reference.ts): narrowgauge's sampling of the demo
 * step ÷ node-llama-cpp's own generation under the same grammar, interleaved
 * pair by pair, on the forged real-vocabulary models (qwen3: Qwen3's
 * tokenizer at tiny dimensions; realistic: at Qwen3-0.6B's, Q8_0) or the
 * models named (tiny, qwen3, realistic). A few minutes.
 */
import { openModel } from "../../index.js";
import { forgedModelFile, QWEN3_0_6B_SHAPE } from "../forge/real-tokenizers.js";
import { describePinned, overPinnedReference } from "./pinned-reference.js";

const SOURCES: Record<string, () => Promise<string>> = {
  tiny: async () => "tiny:1",
  qwen3: () => forgedModelFile("qwen3"),
  realistic: () => forgedModelFile("qwen3", { shape: QWEN3_0_6B_SHAPE, type: "q8_0" }),
};
const names = process.argv.length > 2 ? process.argv.slice(2) : ["qwen3", "realistic"];
for (const name of names) if (!SOURCES[name]) throw new Error(`unknown model ${name}; one of ${Object.keys(SOURCES).join(", ")}`);
console.log("| ratio | value | anchor |\n| --- | --- | --- |");
for (const name of names) {
  process.stderr.write(`pinned reference on ${name}…\n`);
  const opened = await openModel({ source: await SOURCES[name]!(), sequences: 1 });
  try {
    const pinned = await overPinnedReference(opened);
    console.log(`| constrainedOverPinnedReference.${name} | ${pinned.ratio.toFixed(2)} | ${describePinned(pinned)} |`);
    for (const pair of pinned.pairs) process.stderr.write(`  seed ${pair.seed}, ${pair.first} first: ${pair.narrowgaugeMs.toFixed(2)} vs ${pair.referenceMs.toFixed(2)} ms/token (${pair.narrowgaugeTokens} vs ${pair.referenceTokens} tokens)\n`);
  } finally {
    await opened.dispose();
  }
}
