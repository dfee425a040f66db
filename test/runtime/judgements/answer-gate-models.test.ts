import { describe, expect, it } from "vitest";
import { freshnessRequest } from "../../../guards/built-in/a2-freshness.js";
import { verdictOf } from "../../../guards/built-in/a3-verdict.js";
import { FRESHNESS_SCHEMA, VERDICT_SCHEMA } from "../../../guards/facts/judgement-schemas.js";
import type { ModelPort } from "../../../runtime/engine/model-port.js";
import { askJudgement, type JudgementOptions } from "../../../runtime/judgements/ask-judgement.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { validateAgainst } from "../../../schemas/validator-cache.js";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../../helpers/fixture.js";
import { testLlama } from "../../helpers/llama.js";
import { atTier } from "../../tier.js";

const QUESTIONS = ["What's the weather in Paris right now?", "Convert 20 C to F.", "Who won yesterday's match?"];
const askFreshness = (port: ModelPort, question: string, options: JudgementOptions) => askJudgement(port, freshnessRequest(question), "A2", options);
const askVerdict = (port: ModelPort, question: string, draft: string, options: JudgementOptions) => askJudgement(port, verdictOf(question, draft), "A3", options);

describe("the gate's judgements on random-weight models", () => {
  it("always return a valid value of their schema on the tiny model, whatever the seed", async () => {
    const llama = await testLlama();
    // The unit tier samples the seeds (every question among them); the full tier's twin runs all 16.
    for (let seed = 1; seed <= atTier(4, 16); seed++) {
      const port = llamaModelPort(await openModel({ source: { tiny: seed }, llama }));
      try {
        const question = QUESTIONS[seed % QUESTIONS.length]!;
        const freshness = await askFreshness(port, question, { turn: 0 });
        expect(typeof freshness.value, `seed ${seed}: ${freshness.raw}`).toBe("boolean");
        expect(validateAgainst(FRESHNESS_SCHEMA, JSON.parse(freshness.raw))).toEqual([]);
        const verdict = await askVerdict(port, question, "I can look that up for you.", { turn: 1 });
        expect(verdict.value, `seed ${seed}: ${verdict.raw}`).not.toBeNull();
        expect(validateAgainst(VERDICT_SCHEMA, verdict.value)).toEqual([]);
      } finally {
        await port.dispose();
      }
    }
  });

  it.skipIf(!hasLlama2Fixture)("always return a valid value on the Llama-2 fixture, across sampling seeds", async () => {
    const port = llamaModelPort(await openModel({ source: LLAMA2_FIXTURE, llama: await testLlama() }));
    try {
      for (let seed = 1; seed <= atTier(3, 6); seed++) {
        const options = { turn: 0, sampling: { temperature: 1, seed } };
        expect(typeof (await askFreshness(port, QUESTIONS[seed % 3]!, options)).value).toBe("boolean");
        expect((await askVerdict(port, QUESTIONS[seed % 3]!, "Let me check.", options)).value).not.toBeNull();
      }
    } finally {
      await port.dispose();
    }
  });
});
