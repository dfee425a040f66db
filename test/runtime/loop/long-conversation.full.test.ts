// The long conversation at its full 40 asks: the unit tier asks 8 times (test/tier.ts).
import "./long-conversation.test.js";
