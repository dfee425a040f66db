/**
 * How runs end on the built-in tiny model over many weight seeds, per guard
 * profile: answered / failed by reason, guard firings by guard, and step
 * checks. The weather task, greedy, default options.
 *
 *   npm run bench:guards [-- --seeds 100 --profiles sub1b,none --max-turns 6]
 */
import { parseArgs } from "node:util";
import { loadModel, runAgent, PROFILES, type ProfileName } from "../index.js";
import { WEATHER_TASK, weatherTools } from "../demos/weather-tools.js";

const { values } = parseArgs({ options: { seeds: { type: "string", default: "100" }, profiles: { type: "string", default: "sub1b,none" }, "max-turns": { type: "string", default: "6" } } });
const seeds = Number(values.seeds);
const profiles = values.profiles!.split(",") as ProfileName[];
for (const profile of profiles) if (!(profile in PROFILES)) throw new Error(`unknown profile ${profile}`);

const tally = (counts: Record<string, number>, key: string, by = 1) => (counts[key] = (counts[key] ?? 0) + by);
const show = (counts: Record<string, number>) => Object.entries(counts).sort(([, a], [, b]) => b - a).map(([key, count]) => `${key} ${count}`).join(", ");

for (const profile of profiles) {
  const endings: Record<string, number> = {};
  const firings: Record<string, number> = {};
  const checks: Record<string, number> = {};
  let turns = 0;
  let answeredWithBothCities = 0;
  const started = performance.now();
  for (let seed = 1; seed <= seeds; seed++) {
    const model = await loadModel({ tiny: seed });
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile, maxTurns: Number(values["max-turns"]) });
    await model.dispose();
    tally(endings, result.status === "answered" ? "answered" : `${result.status} (${result.reason})`);
    for (const turn of result.turns) {
      for (const decision of turn.guards) tally(firings, decision.guard);
      if (turn.check) tally(checks, turn.check);
    }
    turns += result.turns.length;
    const fetched = new Set(result.turns.filter((turn) => turn.tool?.ok && turn.tool.name === "CityWeather").map((turn) => (turn.tool!.args as { city: string }).city));
    if (result.status === "answered" && fetched.has("Paris") && fetched.has("New York")) answeredWithBothCities++;
    process.stderr.write(`\r${profile}: seed ${seed}/${seeds}`);
  }
  process.stderr.write("\n");
  console.log(`\nprofile ${profile} · ${seeds} seeds · ${turns} turns · ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(`  ended:          ${show(endings)}`);
  console.log(`  answered after fetching both cities: ${answeredWithBothCities}`);
  console.log(`  guard firings:  ${show(firings) || "none"}`);
  console.log(`  step checks:    ${show(checks)}`);
}
