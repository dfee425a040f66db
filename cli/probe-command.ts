import { writeFile } from "node:fs/promises";
import { Option, type Command } from "commander";
import { CODEC_NAMES, PROFILES, type CodecName, type ProfileName } from "../index.js";
import { ARCHITECTURES, renderMarkdown, type Architecture } from "../probe/report.js";
import { runProbe } from "../probe/run-probe.js";
import { loadScenarios } from "../probe/scenario.js";
import { renderProbeHtml } from "../probe/report-page.js";
import { UsageError, type FlagValues } from "./agent-flags.js";
import { EXIT, loadCliModel } from "./run-command.js";
import { eta, progressLine } from "./terminal.js";

interface ProbeFlags extends FlagValues {
  arch: string;
  scenarios?: string;
  codec?: string;
  spy?: boolean;
  json?: string;
  report?: string;
  html?: string;
}

/** narrowgauge probe: the scenarios under architectures A, B, C and P, scored by code. */
export function probeCommand(command: Command, done: (code: number) => void): Command {
  return command
    .description("score a model on the probe's scenarios under architectures A, B, C and P, side by side")
    .option("--arch <list>", "architectures, comma-separated", ARCHITECTURES.join(","))
    .option("--scenarios <ids>", "scenario ids, comma-separated (default: all)")
    .option("--codec <list>", `the codecs A, B and C write steps in, side by side, comma-separated: ${CODEC_NAMES.join(", ")} (default: the model's own)`)
    .addOption(new Option("--profile <name>", "C's guard profile (default: by the model's size)").choices(Object.keys(PROFILES)))
    .option("--spy", "keep each run's exact prompts in the JSON")
    .option("--json <file>", "write the full report as JSON")
    .option("--report <file>", "write the Markdown report there instead of stdout")
    .option("--html <file>", "write the report as a self-contained HTML page with a chart per measure")
    .addHelpText("after", "\nProgress (runs done, time left) goes to stderr when it is a terminal. Exit code 0 when the suite ran, 2 on bad usage or a model that cannot load.")
    .action(async (flags: ProbeFlags) => {
      const architectures = flags.arch.split(",").map((arch) => arch.trim().toUpperCase()) as Architecture[];
      for (const arch of architectures) if (!ARCHITECTURES.includes(arch)) throw new UsageError(`unknown architecture ${arch}`);
      const codecs = flags.codec?.split(",").map((codec) => codec.trim()) as CodecName[] | undefined;
      for (const codec of codecs ?? []) if (!CODEC_NAMES.includes(codec)) throw new UsageError(`unknown codec ${codec}; known: ${CODEC_NAMES.join(", ")}`);
      const all = await loadScenarios();
      const wanted = flags.scenarios?.split(",").map((id) => id.trim());
      for (const id of wanted ?? []) if (!all.some((scenario) => scenario.id === id)) throw new UsageError(`unknown scenario ${id}; known: ${all.map((scenario) => scenario.id).join(", ")}`);
      const model = await loadCliModel(flags.model ?? "tiny", flags);
      if (!model) return done(EXIT.usage);
      if (!("opened" in model) && architectures.includes("P")) {
        if (flags.arch !== ARCHITECTURES.join(",")) {
          await model.dispose();
          throw new UsageError("architecture P runs node-llama-cpp's own loop in this process; it cannot run on a server");
        }
        architectures.splice(architectures.indexOf("P"), 1);
        process.stderr.write("probe: P (node-llama-cpp's own loop) needs the model in this process; running A, B and C on the server.\n");
      }
      const progress = progressLine();
      const started = performance.now();
      try {
        const report = await runProbe({
          model,
          scenarios: wanted ? all.filter((scenario) => wanted.includes(scenario.id)) : all,
          architectures,
          profile: flags.profile as ProfileName | undefined,
          codecs,
          spy: flags.spy,
          onRunDone: (runs, total) => progress.update(`probe: ${runs}/${total} runs · ${eta(runs, total, performance.now() - started)} left`),
        });
        progress.done();
        const markdown = renderMarkdown(report);
        if (flags.json) await writeFile(flags.json, JSON.stringify(report, null, 2));
        if (flags.html) await writeFile(flags.html, renderProbeHtml(report));
        if (flags.report) await writeFile(flags.report, markdown);
        else process.stdout.write(markdown);
        done(EXIT.answered);
      } finally {
        await model.dispose();
      }
    });
}
