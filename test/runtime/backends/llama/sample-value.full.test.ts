// Sampling a step across every weight seed: the unit tier runs a sample of them (test/tier.ts).
import "./sample-value.test.js";
