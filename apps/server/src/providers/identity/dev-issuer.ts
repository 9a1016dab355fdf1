import { createHash } from 'node:crypto';
import path from 'node:path';
import middie from '@fastify/middie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { safe } from '@parley/protocol';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { createDevIssuerStore } from './dev-issuer-store.js';
import {
  LOGOUT_SCRIPT,
  logoutPage,
  messagePage,
  signInPage,
  type SignInFormValues,
} from './dev-issuer-pages.js';
import type { IdentityFetch } from './relying-party.js';
import { loadDevIssuerSecrets } from './secrets.js';

/** Where the development issuer is mounted on Parley's own server. */
export const DEV_ISSUER_PATH = '/oidc';
export const DEV_CLIENT_ID = 'parley';

export interface DevIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Reaches the issuer in-process (no network hop, whatever PUBLIC_URL resolves to). */
  fetch: IdentityFetch;
}

const signInSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Please enter a valid email address.')),
  firstName: safe(z.string().trim().max(100, 'First name: at most 100 characters.')).default(''),
  lastName: safe(z.string().trim().max(100, 'Last name: at most 100 characters.')).default(''),
});

interface DevAccountClaims {
  email: string;
  given_name: string | null;
  family_name: string | null;
}

/** One stable subject per email address. */
function accountIdFor(email: string): string {
  return createHash('sha256').update(`parley-dev:${email}`).digest('hex').slice(0, 32);
}

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/**
 * The embedded development issuer (`oidc-provider`), mounted at /oidc when OIDC_ISSUER is unset.
 * Sign-in asks for an email and a name, no password; signing keys, cookie keys and its store
 * are kept under DATA_DIR. Parley itself is its only client.
 */
export async function registerDevIssuer(root: FastifyInstance, config: Config): Promise<DevIssuer> {
  const issuer = `${config.publicUrl}${DEV_ISSUER_PATH}`;
  const secrets = loadDevIssuerSecrets(config.dataDir);
  const store = createDevIssuerStore(path.join(config.dataDir, 'identity', 'dev-issuer-store.json'));
  const accounts = store.adapter('DevAccount');
  const appOrigin = config.publicUrl;

  const configuration: Configuration = {
    adapter: store.adapter,
    clients: [
      {
        client_id: DEV_CLIENT_ID,
        client_secret: secrets.clientSecret,
        client_name: 'Parley',
        redirect_uris: [`${appOrigin}/api/callback`],
        post_logout_redirect_uris: [`${appOrigin}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [secrets.signingKey] },
    cookies: {
      keys: secrets.cookieKeys,
      long: { signed: true, sameSite: 'lax', httpOnly: true },
      short: { signed: true, sameSite: 'lax', httpOnly: true },
    },
    scopes: ['openid', 'email', 'profile'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: false,
    ttl: {
      AuthorizationCode: 60,
      // A sign-in page left open longer starts over; anonymous visits do not pile up for an hour.
      Interaction: 15 * 60,
      Session: 14 * 24 * 60 * 60,
      Grant: 14 * 24 * 60 * 60,
      AccessToken: 60 * 60,
      IdToken: 60 * 60,
    },
    pkce: { required: () => true },
    clientBasedCORS: () => false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutPage(form, `${DEV_ISSUER_PATH}/assets/logout.js`);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = messagePage('Signed out', 'You are signed out of the development sign-in.', {
            href: `${appOrigin}/`,
            label: 'Go Home',
          });
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${DEV_ISSUER_PATH}/interaction/${interaction.uid}` },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = messagePage('Sign-in error', String(out.error_description ?? out.error), {
        href: `${appOrigin}/api/login`,
        label: 'Try again',
      });
    },
    async findAccount(_ctx, id) {
      const found = (await accounts.find(id)) as unknown as DevAccountClaims | undefined;
      if (!found) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: found.email,
          email_verified: true,
          given_name: found.given_name ?? undefined,
          family_name: found.family_name ?? undefined,
          name: [found.given_name, found.family_name].filter(Boolean).join(' ') || undefined,
        }),
      };
    },
    // Parley is first-party: its scopes are granted without a consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const existingId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (existingId) {
        const existing = await ctx.oidc.provider.Grant.find(existingId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      session.ensureClientContainer(client.clientId);
      session.grantIdFor(client.clientId, grant.jti);
      return grant;
    },
  };

  const provider = new Provider(issuer, configuration);
  // Parley never terminates TLS itself: an https PUBLIC_URL means a proxy in front.
  provider.proxy = config.trustProxy !== false || config.publicUrl.startsWith('https://');
  provider.on('server_error', (_ctx, err) => root.log.error({ err }, 'development issuer error'));
  const callback = provider.callback();

  await root.register(async (scope) => {
    await scope.register(middie);
    // Everything under /oidc is the provider's, except its sign-in pages and assets (below).
    scope.use(DEV_ISSUER_PATH, (req, res, next) => {
      const url = req.url ?? '/';
      if (url.startsWith('/interaction/') || url.startsWith('/assets/')) return next();
      return callback(req, res);
    });
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    const notFound = async (_req: FastifyRequest, reply: FastifyReply) =>
      reply.status(404).send({ message: 'Not found' });
    scope.all(DEV_ISSUER_PATH, notFound);
    scope.all(`${DEV_ISSUER_PATH}/*`, notFound);

    scope.get(`${DEV_ISSUER_PATH}/assets/logout.js`, async (_req, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(LOGOUT_SCRIPT),
    );

    const expired = (reply: FastifyReply) =>
      sendHtml(
        reply,
        400,
        messagePage(
          'Sign-in expired',
          'This sign-in has expired or was already completed. Please start again.',
          {
            href: `${appOrigin}/api/login`,
            label: 'Start again',
          },
        ),
      );

    const details = async (request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) => {
      try {
        const interaction = await provider.interactionDetails(request.raw, reply.raw);
        return interaction.uid === request.params.uid ? interaction : null;
      } catch {
        return null;
      }
    };

    scope.get<{ Params: { uid: string } }>(`${DEV_ISSUER_PATH}/interaction/:uid`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return expired(reply);
      if (interaction.prompt.name === 'consent' && interaction.session?.accountId) {
        // Parley is first-party: consent is implied (loadExistingGrant normally covers this).
        const grant =
          (interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined) ??
          new provider.Grant({ accountId: interaction.session.accountId, clientId: DEV_CLIENT_ID });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        const to = await provider.interactionResult(
          request.raw,
          reply.raw,
          { consent: { grantId } },
          { mergeWithLastSubmission: true },
        );
        return reply.redirect(to, 303);
      }
      if (interaction.prompt.name !== 'login') return expired(reply);
      const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : '';
      return sendHtml(
        reply,
        200,
        signInPage(`${DEV_ISSUER_PATH}/interaction/${interaction.uid}/login`, {
          email: hint,
          firstName: '',
          lastName: '',
        }),
      );
    });

    scope.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(
      `${DEV_ISSUER_PATH}/interaction/:uid/login`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.prompt.name !== 'login') return expired(reply);
        const body = request.body ?? {};
        const values: SignInFormValues = {
          email: String(body.email ?? ''),
          firstName: String(body.firstName ?? ''),
          lastName: String(body.lastName ?? ''),
        };
        const parsed = signInSchema.safeParse(values);
        if (!parsed.success) {
          const message = parsed.error.issues[0]?.message ?? 'Please check the form.';
          return sendHtml(
            reply,
            400,
            signInPage(`${DEV_ISSUER_PATH}/interaction/${interaction.uid}/login`, values, message),
          );
        }
        const { email, firstName, lastName } = parsed.data;
        const accountId = accountIdFor(email);
        const claims: DevAccountClaims = {
          email,
          given_name: firstName || null,
          family_name: lastName || null,
        };
        await accounts.upsert(accountId, claims as never);
        const to = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId } },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(to, 303);
      },
    );
  });
  root.addHook('onClose', async () => store.flush());

  const host = new URL(config.publicUrl);
  const fetchInProcess: IdentityFetch = async (url, options) => {
    const target = new URL(url);
    if (target.origin !== host.origin || !target.pathname.startsWith(`${DEV_ISSUER_PATH}/`)) {
      return fetch(url, options as RequestInit);
    }
    const res = await root.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: {
        ...options.headers,
        host: host.host,
        ...(host.protocol === 'https:' ? { 'x-forwarded-proto': 'https' } : {}),
      },
      ...(options.body !== undefined && options.body !== null ? { payload: String(options.body) } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };

  return { issuer, clientId: DEV_CLIENT_ID, clientSecret: secrets.clientSecret, fetch: fetchInProcess };
}
