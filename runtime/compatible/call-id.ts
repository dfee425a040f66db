const ID = /^call_[0-9a-f]{8}\.([A-Za-z0-9_-]+)$/;

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/**
 * A call's id, carrying the step's thought: `call_<8 hex>.<thought in
 * base64url>`. Clients echo a call's id back verbatim (in the assistant's
 * `tool_calls` and in the tool message) though many drop
 * `reasoning_content`, so a step whose thought left the messages is still
 * shown to the model as it wrote it, by whichever replica answers next.
 */
export function callIdFor(thought: string | null): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(4)), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return thought ? `call_${random}.${base64url(new TextEncoder().encode(thought))}` : `call_${random}`;
}

/** The thought a call id made by callIdFor carries; undefined for any other id (or one whose text is not UTF-8). */
export function thoughtInCallId(id: string): string | undefined {
  const match = ID.exec(id);
  if (!match) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(match[1]!));
  } catch {
    return undefined;
  }
}
