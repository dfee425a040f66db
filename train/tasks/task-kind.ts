import type { Random } from "../data/random.js";

/** The tool results of one task: every call a run makes is answered from it. */
export interface World {
  respond(tool: string, args: unknown): unknown;
}

/** What the oracle does next: a tool call, or the answer. A thought is written when the profile has one. */
export type OracleStep = { thought: string; tool: string; args: Record<string, unknown> } | { thought: string; answer: string };

/** The oracle policy of one task: its next step, given the results of the calls so far (in order). */
export type OraclePlan = (results: readonly unknown[]) => OracleStep;

/** One kind of task a distilled model learns: phrasings (some held out), a random world, and how an expert solves it. */
export interface TaskKind {
  id: string;
  /** Phrasings trained on; `{a}`, `{b}` are the slots. */
  phrasings: readonly string[];
  /** Phrasings never trained on: the evaluation asks these. */
  heldOut: readonly string[];
  /** The tools the plan uses (a run is given these, and sometimes others). */
  tools: readonly string[];
  draw(random: Random): {
    slots: Record<string, string>;
    world: World;
    plan: OraclePlan;
    /** The numbers a correct answer states, from the results the run got. */
    expected: (results: readonly unknown[]) => number[];
  };
}

/** The task text of a phrasing with its slots filled. */
export const fillSlots = (phrasing: string, slots: Record<string, string>) => phrasing.replace(/\{(\w+)\}/g, (_, name: string) => slots[name] ?? `{${name}}`);
