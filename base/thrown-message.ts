/**
 * What a thrown value says, whatever was thrown: an Error's message, a
 * string, any other value's text. Tools and servers are adversarial input:
 * `throw Object.create(null)` (no toString), an Error whose `message`
 * getter throws, a Proxy that throws on every access all come back as a
 * line, never as a second exception. Capped at `maxLength` characters.
 */
export function thrownMessage(thrown: unknown, maxLength = 2000): string {
  let text: string;
  try {
    text = thrown instanceof Error ? String(thrown.message) : typeof thrown === "string" ? thrown : String(thrown);
  } catch {
    try {
      text = `an unprintable ${typeof thrown}`;
    } catch {
      text = "an unprintable value";
    }
  }
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}
