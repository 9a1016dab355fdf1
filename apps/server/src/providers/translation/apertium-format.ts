/**
 * Apertium's stream format, for one line of plain text. Characters the format reserves are
 * escaped with a backslash so they reach the output as text, not as markup; the line ends with
 * the blanks `[][\n]` that `apertium-destxt -n` would add, and the caller sends a NUL after it.
 *
 * `~` is the exception: apertium-eng-spa's post-generator drops an escaped `\~` (measured: "a \~ b"
 * comes out "Un  b"), so a `~` travels inside a superblank (`[~]`), which every stage passes on
 * untouched.
 */
const RESERVED = /[\\[\]^$/@<>{}*#+]/g;

export function toApertium(text: string): string {
  const oneLine = text.replace(/\0/g, '').replace(/\r?\n/g, ' ');
  return `${oneLine.replace(RESERVED, (c) => `\\${c}`).replace(/~/g, '[~]')}[][\n]`;
}

/**
 * The text of one translated line: escapes undone, superblanks replaced by what they carry
 * (our `[~]`, and the final `[][\n]`), runs of blanks (apertium leaves two spaces where it
 * dropped a word) made single.
 */
export function fromApertium(output: string): string {
  let text = '';
  let i = 0;
  while (i < output.length) {
    const c = output[i]!;
    if (c === '\\' && i + 1 < output.length) {
      text += output[i + 1];
      i += 2;
    } else if (c === '[') {
      // A superblank: its content is format, kept verbatim (escapes undone), ends at an unescaped ].
      i += 1;
      while (i < output.length && output[i] !== ']') {
        if (output[i] === '\\' && i + 1 < output.length) i += 1;
        text += output[i];
        i += 1;
      }
      i += 1;
    } else {
      text += c;
      i += 1;
    }
  }
  return text.replace(/[ \t]{2,}/g, ' ').trim();
}
