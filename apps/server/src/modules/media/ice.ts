import { createHmac } from 'node:crypto';
import type { IceServer } from '@parley/protocol';
import type { Config } from '../../config.js';

/** TURN credentials are valid this long (coturn REST API, `use-auth-secret`). */
export const TURN_CREDENTIAL_TTL_S = 24 * 60 * 60;

/**
 * ICE servers for one participant: the STUN URLs as configured, and the TURN URLs with
 * time-limited credentials in coturn's REST form: username `${expiryUnix}:${participantId}`,
 * credential base64(HMAC-SHA1(TURN_SECRET, username)). TURN URLs without a secret are left out
 * (a TURN server always needs credentials).
 */
export function iceServersFor(
  ice: Config['ice'],
  participantId: string,
  now: Date = new Date(),
): IceServer[] {
  const servers: IceServer[] = [];
  if (ice.stunUrls.length) servers.push({ urls: ice.stunUrls });
  if (ice.turnUrls.length && ice.turnSecret) {
    const expiry = Math.floor(now.getTime() / 1000) + TURN_CREDENTIAL_TTL_S;
    const username = `${expiry}:${participantId}`;
    const credential = createHmac('sha1', ice.turnSecret).update(username).digest('base64');
    servers.push({ urls: ice.turnUrls, username, credential });
  }
  return servers;
}
