// Incremental rendering's random runs at full count: the unit tier runs a sample of them (test/tier.ts).
import "./incremental-render.test.js";
