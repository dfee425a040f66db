// runAgent across every weight seed: the unit tier runs a sample of them (test/tier.ts).
import "./run-agent-models.test.js";
