import { stat } from "node:fs/promises";
import { GgufFileType, type LlamaModel } from "node-llama-cpp";
import { ConfigurationError, runAgent, type CodecName, type LlamaModelPort, type ProfileName, type RemoteModelPort, type RunEvent, type RunResult } from "../index.js";
import { ARCHITECTURE_A_STRATEGY } from "./architecture-a.js";
import { runPeerBaseline } from "./peer-baseline.js";
import { toolsFor } from "./probe-tools.js";
import { probeRun, summarise, type Architecture, type ProbeModel, type ProbeReport, type ProbeRun } from "./report.js";
import type { Scenario } from "./scenario.js";
import { scoreRun } from "./score.js";

/** The probe runs on a model in this process or on llama-servers (P, node-llama-cpp's own loop, needs one in process). */
export type ProbeTarget = LlamaModelPort | RemoteModelPort;

/** node-llama-cpp's model object: the loaded model, or the served model's local vocabulary copy. */
const ggufOf = (model: ProbeTarget): LlamaModel => ("opened" in model ? model.opened.model : model.vocabulary);

export interface ProbeOptions {
  model: ProbeTarget;
  scenarios: readonly Scenario[];
  architectures: readonly Architecture[];
  /** C's guard profile. Defaults to the profile for the model's size. */
  profile?: ProfileName;
  /** The codecs A, B and C run under, side by side. Defaults to the model's own (runAgent's default). */
  codecs?: readonly CodecName[];
  /** Record the exact prompts in every run's result. Defaults to false. */
  spy?: boolean;
  /** Overrides the family preset; greedy unless the family documents otherwise. */
  sampling?: ProbeModel["sampling"];
  onProgress?: (line: string) => void;
  /** Called after each run with how many of the total are done. */
  onRunDone?: (done: number, total: number) => void;
}

/** The GGUF's quantisation: its declared file type, or the tensor types when it declares none. */
function quantisation(model: ProbeTarget): string {
  const fileType = ggufOf(model).fileInfo.metadata.general?.file_type;
  if (fileType !== undefined) return GgufFileType[fileType] ?? `file type ${fileType}`;
  const tensors = ggufOf(model).fileInfo.fullTensorInfo ?? [];
  return tensors.every((tensor) => tensor.ggmlType === 0) ? "F32" : "mixed";
}

export async function describeProbeModel(model: ProbeTarget, sampling?: ProbeModel["sampling"]): Promise<ProbeModel> {
  const preset = model.description.sampling;
  const file = "opened" in model ? model.opened.file : model.vocabularyFile;
  return {
    name: model.description.name,
    file,
    wrapper: model.description.wrapper,
    threads: model.description.threads,
    ...(model.description.server ? { server: model.description.server } : {}),
    sampling: sampling ?? { family: preset.family, source: preset.source, ...preset.sampling },
    parameters: model.description.parameters,
    sizeBytes: (await stat(file)).size,
    quantisation: quantisation(model),
    builtIn: model.description.builtIn,
  };
}

/** Runs one scenario under one architecture: A, B and C are runAgent options; P is node-llama-cpp's own loop. */
export async function runScenario(
  model: ProbeTarget,
  scenario: Scenario,
  arch: Architecture,
  options: Pick<ProbeOptions, "profile" | "spy"> & { sampling: ProbeModel["sampling"]; codec?: CodecName; onEvent?: (event: RunEvent) => void },
): Promise<ProbeRun> {
  const { family: _family, source: _source, ...sampling } = options.sampling;
  const common = { model, task: scenario.task, maxTurns: scenario.maxTurns, sampling, spy: options.spy, onEvent: options.onEvent };
  let result: RunResult;
  let inventedToolNames: string[] = [];
  if (arch === "P") {
    if (!("opened" in model)) throw new ConfigurationError("arch", "architecture P runs node-llama-cpp's own loop, which needs the model in this process, not on a server");
    // The peer loop has no notion of a switched-off tool: it is simply not given one.
    const tools = toolsFor(scenario).filter((tool) => !scenario.disabled?.includes(tool.name as never));
    ({ result, inventedToolNames } = await runPeerBaseline({ ...common, model, tools }));
  } else {
    const architecture = {
      A: { profile: "sub1b" as const, strategy: ARCHITECTURE_A_STRATEGY },
      B: { profile: "none" as const },
      C: { profile: options.profile },
    }[arch];
    result = await runAgent({ ...common, ...architecture, codec: options.codec, tools: toolsFor(scenario), requireTool: scenario.requireTool, disabledTools: scenario.disabled });
  }
  return probeRun(scenario.id, arch, result.codec, scoreRun(scenario, result, { inventedToolNames }), result as unknown as ProbeRun["result"]);
}

export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  const started = performance.now();
  const model = await describeProbeModel(options.model, options.sampling);
  const runs: ProbeRun[] = [];
  const codecs: ReadonlyArray<CodecName | undefined> = options.codecs?.length ? options.codecs : [undefined];
  // P is node-llama-cpp's own loop: it has no codec, so it runs once.
  const columns = options.architectures.flatMap((arch): Array<{ arch: Architecture; codec: CodecName | undefined }> => (arch === "P" ? [{ arch, codec: undefined }] : codecs.map((codec) => ({ arch, codec }))));
  const total = options.scenarios.length * columns.length;
  for (const scenario of options.scenarios) {
    for (const { arch, codec } of columns) {
      const position = `[${runs.length + 1}/${total}] ${arch}${codec ? ` ${codec}` : ""} ${scenario.id}`;
      const run = await runScenario(options.model, scenario, arch, {
        profile: options.profile,
        spy: options.spy,
        codec,
        sampling: model.sampling,
        onEvent: (event) => {
          if (event.type === "turn-end") options.onProgress?.(`${position} turn ${event.turn.index} done`);
        },
      });
      options.onProgress?.(`${position}: ${run.solved ? "solved" : "not solved"}, ${run.endedBy}, ${run.turns} turns`);
      runs.push(run);
      options.onRunDone?.(runs.length, total);
    }
  }
  return { model, runs, summary: summarise(runs), ms: performance.now() - started };
}
