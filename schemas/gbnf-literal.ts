/**
 * Quotes text as a GBNF string literal. llama.cpp's parser understands
 * \\ \" \n \r \t and \xHH / \uHHHH / \UHHHHHHHH escapes; we escape every
 * control character as \uHHHH (xgrammar reads \x with any number of hex
 * digits, so "\x1f0" would be one code point there) and leave other code
 * points as UTF-8.
 */
export function gbnfLiteral(text: string): string {
  let body = "";
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (character === '"') body += '\\"';
    else if (character === "\\") body += "\\\\";
    else if (character === "\n") body += "\\n";
    else if (character === "\r") body += "\\r";
    else if (character === "\t") body += "\\t";
    else if (code < 0x20 || code === 0x7f) body += `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
    else body += character;
  }
  return `"${body}"`;
}
