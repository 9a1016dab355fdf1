/**
 * The rule for text that comes in (no zod here: the room's page checks a name with it without
 * evaluating a schema module; `safe-text.ts` puts it into schemas).
 *
 * Text that comes in from people (names, chat, titles, descriptions, invitee names) and reaches a
 * page, a PDF, an e-mail or the database. One rule for all of it, kept here and used by every
 * schema that takes such text, on both sides:
 *
 * - no control characters (C0, DEL, C1). A NUL was accepted in a name and then broke every
 *   database write for that participant (PostgreSQL refuses NUL in text: no attendance row, an
 *   error log with the SQL). Multi-line text (chat, descriptions) keeps tab, line feed and
 *   carriage return; single-line text (names, titles) keeps none, nor U+2028 / U+2029.
 * - no bidirectional embedding, override or isolate controls (U+202A-U+202E, U+2066-U+2069): a
 *   name could reorder what is shown after it ("Trojan Source", CVE-2021-42574). The marks
 *   U+200E, U+200F and U+061C stay: they only nudge neutral characters, and Arabic and Hebrew
 *   text uses them.
 * - no lone surrogate halves (not Unicode; they become U+FFFD on the way to the database).
 *
 * Such text is refused with a message, not cleaned silently: the sender sees why, and nothing
 * differs between what was typed and what others see. Letters of any script, accents and emoji
 * (including ZWJ sequences and variation selectors) pass.
 */

// The control characters are what these match (eslint's no-control-regex guards against typos).
// eslint-disable-next-line no-control-regex
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /\p{Cs}/u;

export const UNSAFE_TEXT_MESSAGES = {
  control: 'must not contain control characters',
  bidi: 'must not contain text-direction override characters',
  surrogate: 'must not contain broken characters',
} as const;

export interface SafeTextOptions {
  /** Tab, line feed and carriage return are allowed (chat, descriptions). */
  multiline?: boolean;
}

/** Why `value` may not be taken as text (a key of UNSAFE_TEXT_MESSAGES), or null when it may. */
export function unsafeTextReason(
  value: string,
  options: SafeTextOptions = {},
): keyof typeof UNSAFE_TEXT_MESSAGES | null {
  if ((options.multiline ? CONTROL_MULTILINE : CONTROL_SINGLE_LINE).test(value)) return 'control';
  if (BIDI_CONTROL.test(value)) return 'bidi';
  if (LONE_SURROGATE.test(value)) return 'surrogate';
  return null;
}

const UNSAFE_ANYWHERE = new RegExp(
  `${CONTROL_SINGLE_LINE.source}|${BIDI_CONTROL.source}|${LONE_SURROGATE.source}`,
  'gu',
);

/**
 * `value` without the characters `safeText` refuses (single-line rules), for text no person typed
 * into a form of ours and so cannot be sent back: an uploaded file's name as the browser gives it,
 * the name claims of an identity provider.
 */
export function stripUnsafeText(value: string): string {
  return value.replace(UNSAFE_ANYWHERE, '');
}
