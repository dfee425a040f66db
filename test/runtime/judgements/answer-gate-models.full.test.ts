// The gate's judgements across every seed: the unit tier runs a sample of them (test/tier.ts).
import "./answer-gate-models.test.js";
