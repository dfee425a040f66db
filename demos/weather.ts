/**
 * The reference task end to end: "What's the weather in Paris and New York?"
 * with CityWeather, Calculator and ConvertTemperature. The same as
 * `narrowgauge demo`; see `npm run demo -- --help`.
 */
import { runCli } from "./cli/narrowgauge.js";

process.exitCode = await runCli(["node", "narrowgauge", "demo", ...process.argv.slice(2)]);
