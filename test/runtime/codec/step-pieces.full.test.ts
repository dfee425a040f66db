// What the unit tier samples here, at full count (test/tier.ts): a native step's four views on any frame.
import "./step-pieces.test.js";
