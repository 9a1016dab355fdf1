import type { Page } from 'playwright-core';
import { signIn, type DevIdentity } from './DevSignIn.js';

/** Runs a same-origin JSON request from the page (cookies and Origin as the app sends them). */
async function pageFetch<T>(
  page: Page,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, json: json as never };
    },
    { method, url, body },
  );
}

/**
 * A host for room tests: signs in through the development issuer, subscribes to Pro through the
 * built-in payments sandbox (the test card 4242), and creates meetings through the API.
 */
export async function signInAsProHost(page: Page, who: DevIdentity): Promise<void> {
  await signIn(page, who);
  const created = await pageFetch<{ clientSecret: string }>(page, 'POST', '/api/subscription/create', {
    email: who.email,
  });
  if (created.status !== 200)
    throw new Error(`subscription create: ${created.status} ${JSON.stringify(created.json)}`);
  const paid = await pageFetch(page, 'POST', '/api/payment/sandbox/confirm', {
    clientSecret: created.json.clientSecret,
    cardNumber: '4242 4242 4242 4242',
    expiry: '12 / 34',
    cvc: '123',
  });
  if (paid.status !== 200) throw new Error(`sandbox payment: ${paid.status} ${JSON.stringify(paid.json)}`);
  const status = await pageFetch<{ isActive: boolean }>(page, 'GET', '/api/subscription/status');
  if (!status.json.isActive) throw new Error(`not Pro after paying: ${JSON.stringify(status.json)}`);
}

export interface MeetingOptions {
  title?: string;
  password?: string;
  waitingRoom?: boolean;
  maxParticipants?: number;
}

/** Creates a meeting as the signed-in Pro host; returns its public id (ddd-ddd-ddd). */
export async function createMeeting(page: Page, opts: MeetingOptions = {}): Promise<string> {
  const scheduled =
    opts.password !== undefined || opts.waitingRoom !== undefined || opts.maxParticipants !== undefined;
  const body = scheduled
    ? {
        meetingType: 'scheduled',
        title: opts.title ?? 'Room test',
        hostEmail: 'host@example.com',
        scheduledFor: new Date(Date.now() + 3600_000).toISOString(),
        requiresPassword: opts.password !== undefined,
        password: opts.password ?? null,
        waitingRoom: opts.waitingRoom ?? false,
        maxParticipants: opts.maxParticipants ?? 100,
      }
    : { meetingType: 'instant', title: opts.title ?? 'Instant test' };
  const res = await pageFetch<{ meetingId: string }>(page, 'POST', '/api/meetings', body);
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`create meeting: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.meetingId;
}

/**
 * The signed-in host's "Cover everyone's time" of a meeting, through the API (on by default for
 * a Pro host's meeting, issue 37 item 3): tests of the free tier turn it off to count guests.
 */
export async function setCoverEveryone(page: Page, meetingId: string, coverEveryone: boolean): Promise<void> {
  const res = await pageFetch(page, 'PUT', `/api/meetings/${meetingId}/free-time-cover`, { coverEveryone });
  if (res.status !== 200) throw new Error(`free-time cover: ${res.status} ${JSON.stringify(res.json)}`);
}
