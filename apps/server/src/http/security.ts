import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * Security headers. The Content-Security-Policy allows exactly what the SPA needs: its own
 * scripts, styles (Radix sets inline style attributes), images and media from itself, blob: and
 * data: (camera previews, thumbnails), its own WebSocket, and WebAssembly compiled from its own files.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = config.publicUrl.startsWith('https://');
  const wsOrigin = config.publicUrl.replace(/^http/, 'ws');
  // Stripe's Payment Element (only when Stripe is configured): Stripe.js, its frames and its API.
  const stripe = config.stripe.secretKey && config.stripe.publishableKey;
  const stripeScripts = stripe ? ['https://js.stripe.com', 'https://*.js.stripe.com'] : [];
  const stripeFrames = stripe
    ? ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']
    : [];
  const stripeConnect = stripe ? ['https://api.stripe.com'] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // 'wasm-unsafe-eval' lets the page compile WebAssembly (the background segmentation model,
        // served from our origin); it does not allow eval() of strings.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...stripeScripts],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:', 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", wsOrigin, ...stripeConnect],
        frameSrc: ["'self'", ...stripeFrames],
        workerSrc: ["'self'", 'blob:'],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
}
