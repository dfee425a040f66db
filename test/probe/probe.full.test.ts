// The probe end to end on three scenarios: the unit tier runs one of them (test/tier.ts).
import "./probe.test.js";
