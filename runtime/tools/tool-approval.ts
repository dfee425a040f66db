import { thrownMessage } from "../../base/thrown-message.js";
import type { Tool, ToolAnnotations } from "./define-tool.js";

/** A person's answer to one call: run it, do not (the tool then leaves the union for the rest of the run), or run it and every later call of that tool without asking. */
export type Approval = "yes" | "no" | "always";

/** One call put to runAgent's `approve`, before it runs. */
export interface ApprovalRequest {
  /** The tool's name as the caller named it. */
  readonly tool: string;
  /** The arguments, validated against the tool's schema (a copy: changing it changes nothing). */
  readonly args: unknown;
  /** The turn that made the call, 1-based. */
  readonly turn: number;
  /** What the tool says about itself, when it says anything. */
  readonly annotations?: Readonly<ToolAnnotations>;
  /** Aborted when the run is: a wait for a person should end then. */
  readonly signal: AbortSignal;
}

/** runAgent's `approve`: asked before each call of a tool that needs approval. */
export type Approve = (call: ApprovalRequest) => Approval | Promise<Approval>;

/**
 * Destructive as the MCP specification reads the hints: `destructiveHint`
 * defaults to true and only matters where `readOnlyHint` is not true, so a
 * tool that says neither `readOnlyHint: true` nor `destructiveHint: false`
 * (one with no annotations at all, too) is destructive.
 */
export const readsAsDestructive = (annotations: ToolAnnotations | undefined): boolean => annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;

/**
 * Whether each call of a tool waits for a person (runAgent's `approve`): as
 * its `needsApproval` says, else whether its annotations read as
 * destructive. A tool that declares no annotations needs none (mcpTools says
 * `needsApproval` for each tool, since an MCP tool without annotations is
 * destructive).
 */
export const needsApproval = (tool: Pick<Tool, "needsApproval" | "annotations">): boolean => tool.needsApproval ?? (tool.annotations !== undefined && readsAsDestructive(tool.annotations));

/** Why a tool reads as destructive, for people: which hints it gave (or that it gave none). */
export function destructiveReason(annotations: ToolAnnotations | undefined): string {
  if (annotations === undefined) return "no annotations (the MCP specification reads a tool without readOnlyHint: true or destructiveHint: false as destructive)";
  if (annotations.destructiveHint === true) return "destructiveHint: true";
  return "neither readOnlyHint: true nor destructiveHint: false (destructive by the MCP specification's defaults)";
}

/**
 * What asking came to: the call runs (with the person's answer, where one
 * was asked), the person declined (with what a throwing `approve` threw),
 * or the run was aborted during the wait.
 */
export type Asked = { kind: "run"; approval?: "yes" | "always" } | { kind: "declined"; thrown?: string } | { kind: "aborted" };

const ABORTED = Symbol("aborted");

/**
 * Puts a call that passed every check to `approve`, where its tool needs
 * approval and has not been granted (`always`) already; an `always` adds it
 * to `granted`. Only "yes" and "always" run the call: anything else, and a
 * throw, is a no (a closed input, a crashed prompt: nothing runs unasked).
 * The wait has no timeout of its own (a person may take long); the run's
 * signal ends it, as it ends a tool.
 */
export async function askApproval(
  asking: { approve: Approve | undefined; signal: AbortSignal; granted: Set<string> },
  tool: Tool,
  request: { tool: string; args: unknown; turn: number },
): Promise<Asked> {
  const { approve, signal, granted } = asking;
  if (approve === undefined || !needsApproval(tool) || granted.has(tool.name)) return { kind: "run" };
  if (signal.aborted) return { kind: "aborted" };
  let onAbort = () => {};
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  const call: ApprovalRequest = { ...request, args: structuredClone(request.args), ...(tool.annotations ? { annotations: tool.annotations } : {}), signal };
  try {
    const answer: Approval | typeof ABORTED = await Promise.race([Promise.resolve().then(() => approve(call)), aborted]);
    if (answer === ABORTED) return { kind: "aborted" };
    if (answer !== "yes" && answer !== "always") return { kind: "declined" };
    if (answer === "always") granted.add(tool.name);
    return { kind: "run", approval: answer };
  } catch (error) {
    return signal.aborted ? { kind: "aborted" } : { kind: "declined", thrown: thrownMessage(error) };
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
