// The sampling property at full count: the unit tier runs a sample of it (test/tier.ts).
import "./tiny-model-sampling-property.test.js";
