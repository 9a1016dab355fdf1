/**
 * The name a user goes by: the first and last name of their account joined, or null when they gave
 * neither. Where some text must show (a mail's greeting, an invitation's host), the caller falls
 * back to the e-mail address itself.
 */
export function displayName(user: { firstName: string | null; lastName: string | null }): string | null {
  return [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || null;
}
