/**
 * The probe suite: scenarios scored mechanically, architectures A, B, C and
 * the node-llama-cpp baseline P side by side on one model. The same as
 * `narrowgauge probe`; see `npm run probe -- --help`.
 */
import { runCli } from "./cli/narrowgauge.js";

process.exitCode = await runCli(["node", "narrowgauge", "probe", ...process.argv.slice(2)]);
