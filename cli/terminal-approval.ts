import { canAsk, oneAtATime, printable, readYesNoAlways } from "./terminal-input.js";
import { destructiveReason, needsApproval, readsAsDestructive, type Approval, type Approve, type ApprovalRequest, type Tool } from "../index.js";

/** How much of a call's arguments the question shows, in characters of their JSON. */
export const SHOWN_ARGUMENTS = 400;

/** A call's arguments as the question shows them: their JSON, cut at SHOWN_ARGUMENTS characters with a count of the rest. */
export function shownArguments(args: unknown): string {
  const json = JSON.stringify(args) ?? "undefined";
  return printable(json.length > SHOWN_ARGUMENTS ? `${json.slice(0, SHOWN_ARGUMENTS)}… (${json.length - SHOWN_ARGUMENTS} more characters)` : json);
}

/**
 * runAgent's `approve` on a terminal: the tool, its arguments (cut) and why
 * it asks are written to `output`, and a line read from `input` answers: y
 * (yes), n (no), a (always: this tool, for the rest of the run); anything
 * else asks again. The input's end is a no; the run's signal (Ctrl-C) ends
 * the wait.
 */
export function terminalApprove(input: NodeJS.ReadableStream & { readableEnded?: boolean }, output: NodeJS.WritableStream): Approve {
  return (call: ApprovalRequest) => oneAtATime(input, () => ask(call));
  async function ask(call: ApprovalRequest): Promise<Approval> {
    const why = call.annotations ? `, ${destructiveReason(call.annotations)}` : "";
    output.write(`\n${printable(call.tool)} needs your approval (turn ${call.turn}${why}):\n  ${printable(call.tool)} ${shownArguments(call.args)}\nRun it? [y]es, [n]o, [a]lways for ${printable(call.tool)}: `);
    return readYesNoAlways(input, output, call.signal);
  }
}

/** The tools `--allow-destructive` names (or all, with "all") no longer need approval: they run without asking. */
export function allowTools(tools: readonly Tool[], allowed: readonly string[] | undefined): Tool[] {
  if (!allowed || allowed.length === 0) return [...tools];
  return tools.map((tool) => (needsApproval(tool) && (allowed.includes("all") || allowed.includes(tool.name)) ? Object.freeze({ ...tool, needsApproval: false }) : tool));
}

/**
 * What the run's start says about the tools that need approval: whether
 * each call is asked on this terminal or they are switched off (no terminal
 * to ask on), grouped by why they need it, and the exact
 * `--allow-destructive` that runs them without asking. No lines where no
 * tool needs approval.
 */
export function approvalNotice(tools: readonly Tool[], asking: boolean): string[] {
  const needing = tools.filter(needsApproval);
  if (needing.length === 0) return [];
  const groups = new Map<string, string[]>();
  for (const tool of needing) {
    const reason = tool.annotations !== undefined && !readsAsDestructive(tool.annotations) ? "needsApproval: true" : destructiveReason(tool.annotations);
    groups.set(reason, [...(groups.get(reason) ?? []), tool.name]);
  }
  const names = needing.map((tool) => tool.name);
  return [
    asking
      ? "Asked on this terminal before each call (they need approval as destructive):"
      : "switched off as destructive, with no terminal to ask on (stdin and stderr must both be terminals); documented, never offered:",
    ...[...groups].map(([reason, group]) => `  ${printable(group.join(", "))}: ${reason}`),
    `  --allow-destructive ${printable(names.join(","))} (or all) runs them without asking`,
  ];
}

/**
 * The run command's approval: `--allow-destructive` applied, what the start
 * says about the rest on stderr (tools `--disabled-tools` names are never
 * offered anyway), and the terminal's approve where a person can be asked
 * (stdin and stderr both terminals).
 */
export function commandLineApproval(
  given: readonly Tool[],
  flags: { allowDestructive?: readonly string[]; disabledTools?: readonly string[] },
  streams: { input: NodeJS.ReadStream; output: NodeJS.WriteStream } = { input: process.stdin, output: process.stderr },
): { tools: Tool[]; approve?: Approve } {
  const tools = allowTools(given, flags.allowDestructive);
  const asking = canAsk(streams.input, streams.output);
  for (const line of approvalNotice(tools.filter((tool) => !flags.disabledTools?.includes(tool.name)), asking)) streams.output.write(`${line}\n`);
  return asking ? { tools, approve: terminalApprove(streams.input, streams.output) } : { tools };
}
