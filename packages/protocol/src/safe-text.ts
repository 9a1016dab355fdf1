import { z } from 'zod';
import { unsafeTextReason, UNSAFE_TEXT_MESSAGES, type SafeTextOptions } from './text-rules.js';
export {
  stripUnsafeText,
  unsafeTextReason,
  UNSAFE_TEXT_MESSAGES,
  type SafeTextOptions,
} from './text-rules.js';

/**
 * A string refused (with a message) when it holds a character `unsafeTextReason` names. Chain
 * `.trim()`, `.min()` and `.max()` before calling it on a built schema with `safe(...)`, or start
 * from `safeText()`.
 */
export function safe<T extends z.ZodType<string, string>>(schema: T, options: SafeTextOptions = {}): T {
  return schema.superRefine((value, ctx) => {
    const reason = unsafeTextReason(value, options);
    if (reason) ctx.addIssue({ code: 'custom', message: UNSAFE_TEXT_MESSAGES[reason] });
  }) as unknown as T;
}

/** `z.string()` that refuses control, bidi-override and broken characters. */
export function safeText(options: SafeTextOptions = {}) {
  return safe(z.string(), options);
}
