// What the unit tier samples here, at full count (test/tier.ts): a schema's size against
// its compile work, and xgrammar against llama.cpp on every code point.
import "./schema-size.test.js";
import "./xgrammar-portability.test.js";
