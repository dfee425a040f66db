import { randomBytes } from "node:crypto";

const ID = /^call_[0-9a-f]{8}\.([A-Za-z0-9_-]+)$/;

/**
 * A call's id, carrying the step's thought: `call_<8 hex>.<thought in
 * base64url>`. Clients echo a call's id back verbatim (in the assistant's
 * `tool_calls` and in the tool message) though many drop
 * `reasoning_content`, so a step whose thought left the messages is still
 * shown to the model as it wrote it, by whichever replica answers next.
 */
export function callIdFor(thought: string | null): string {
  const id = `call_${randomBytes(4).toString("hex")}`;
  return thought ? `${id}.${Buffer.from(thought, "utf8").toString("base64url")}` : id;
}

/** The thought a call id made by callIdFor carries; undefined for any other id. */
export function thoughtInCallId(id: string): string | undefined {
  const match = ID.exec(id);
  return match ? Buffer.from(match[1]!, "base64url").toString("utf8") : undefined;
}
