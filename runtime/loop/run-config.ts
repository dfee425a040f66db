import { GuardRegistry } from "../../guards/guard-registry.js";
import { PROFILES, profileForParameters, type GuardProfile, type ProfileName } from "../../guards/profiles.js";
import { chooseRunCodec } from "../codec/choose-codec.js";
import { adoptTools } from "../tools/foreign/foreign-tools.js";
import type { StepCodec } from "../codec/step-codec.js";
import type { ModelPort } from "../engine/model-port.js";
import type { Sampling } from "../engine/sampling.js";
import { resolveDeclared, type ResolvedValue } from "./options/option-kinds.js";
import { RUN_OPTIONS, type RunAgentOptions } from "./options/run-options.js";
import type { RunEvent } from "./run-types.js";
import { NATIVE_STRATEGY, type TurnStrategy } from "./turn-strategy.js";
import { ConfigurationError } from "../../base/configuration-error.js";
import { readAnswerSchema } from "./answer-schema.js";

export type { RunAgentOptions };

type Declared = { -readonly [Name in keyof typeof RUN_OPTIONS]: ResolvedValue<(typeof RUN_OPTIONS)[Name]> };

/**
 * A run's options with every default resolved: what the loop reads, and
 * nothing else. The declared options as they resolve, and what follows from
 * them: the profile (by name or custom) and the guards it switches on, the
 * codec and its system prompt, the sampling, the strategy, a signal.
 */
export interface RunConfig extends Omit<Declared, "profile" | "guards" | "sampling" | "strategy" | "signal" | "onEvent" | "codec" | "system" | "answerSchema"> {
  /** The final answer's schema, normalized (see readAnswerSchema); null: the answer is text. */
  answerSchema: object | null;
  /** How steps are written and shown. */
  codec: StepCodec;
  /** Why the steps are JSON though the model's format has a call syntax of its own (one that cannot write a tool's parameters); null otherwise. */
  codecFallback: string | null;
  /** The system prompt: the caller's, or the codec's. */
  system: string;
  profileName: ProfileName | "custom";
  profile: GuardProfile;
  /** The guards this run uses, switched and set by the profile (built-in ones and the caller's), in the order they run. */
  registry: GuardRegistry;
  sampling: Sampling;
  strategy: TurnStrategy;
  /** The caller's signal, or one that never fires. */
  signal: AbortSignal;
  onEvent: ((event: RunEvent) => void) | undefined;
}

/** runAgent's static defaults, read off RUN_OPTIONS. */
export const RUN_DEFAULTS = Object.freeze(
  Object.fromEntries(Object.entries(RUN_OPTIONS).flatMap(([name, declaration]) => ("default" in declaration && declaration.default !== undefined ? [[name, declaration.default]] : []))),
) as {
  readonly [Name in keyof typeof RUN_OPTIONS as (typeof RUN_OPTIONS)[Name] extends { default: unknown } ? Name : never]: ResolvedValue<(typeof RUN_OPTIONS)[Name]>;
};

function resolveProfile(option: ProfileName | GuardProfile | undefined, model: ModelPort): { name: ProfileName | "custom"; profile: GuardProfile } {
  if (typeof option === "object" && option !== null) return { name: "custom", profile: option };
  const name = option ?? (model.description.parameters ? profileForParameters(model.description.parameters) : "sub1b");
  if (!Object.hasOwn(PROFILES, name)) throw new ConfigurationError("profile", `unknown profile ${JSON.stringify(name)}; known: ${Object.keys(PROFILES).join(", ")}`);
  return { name, profile: PROFILES[name] };
}

/** Resolves runAgent's options once. Throws (ConfigurationError) only for options that cannot mean anything; undefined keeps the default. */
export function resolveRunConfig(options: RunAgentOptions): RunConfig {
  const declared = resolveDeclared(RUN_OPTIONS, options as Record<string, unknown>, "runAgent") as Declared;
  const { name, profile } = resolveProfile(declared.profile, declared.model);
  const { codec, fallback } = chooseRunCodec(declared.model, declared.codec, () => adoptTools(declared.tools));
  return {
    ...declared,
    codec,
    codecFallback: fallback,
    system: declared.system ?? codec.defaultSystem,
    answerSchema: readAnswerSchema(declared.answerSchema, { defaultMaxLength: declared.defaultMaxLength, defaultMaxItems: declared.defaultMaxItems, freeValueDepth: declared.freeValueDepth }),
    profileName: name,
    profile,
    registry: GuardRegistry.of(profile, declared.guards),
    sampling: declared.sampling ?? declared.model.description.sampling.sampling,
    strategy: { ...NATIVE_STRATEGY, ...declared.strategy },
    signal: declared.signal ?? new AbortController().signal,
    onEvent: declared.onEvent,
  };
}
