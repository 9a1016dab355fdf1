/**
 * The landing page's name check (spec §5): a short list of substrings, matched on the trimmed,
 * lower-cased name. Chosen so ordinary names (Cassandra, Dickens, Hancock) pass.
 */
const BLOCKED_SUBSTRINGS = [
  'fuck',
  'shit',
  'bitch',
  'cunt',
  'asshole',
  'bastard',
  'whore',
  'slut',
  'wanker',
  'nigger',
  'faggot',
  'retard',
] as const;

export function containsProfanity(value: string): boolean {
  const v = value.trim().toLowerCase();
  return v.length > 0 && BLOCKED_SUBSTRINGS.some((word) => v.includes(word));
}
