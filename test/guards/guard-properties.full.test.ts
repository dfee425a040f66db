// The guard properties at full count: the unit tier runs a sample of each (test/tier.ts).
import "./guard-properties.test.js";
