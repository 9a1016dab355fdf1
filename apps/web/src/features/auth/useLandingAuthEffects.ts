/**
 * The landing page's auth behaviour (spec §2, §4): `login=success` refreshes the user and is
 * removed from the address; on load stored user data is cleared and the user refetched after
 * 100 ms; with no user after loading, the spec's local-storage keys and session storage are
 * cleared. Filled by the identity issue; the landing page calls it once.
 */
export function useLandingAuthEffects(): void {}
