# syntax=docker/dockerfile:1
# Parley's server image: the API, the realtime WebSocket and the built SPA in one Node.js process.
# Multi-stage: `build` installs every dependency (native addons need a compiler: janode's
# unix-dgram builds with node-gyp), builds the web app and the server bundle, then drops the dev
# dependencies; `runtime` copies only what `node apps/server/dist/main.js` reads, and runs as the
# unprivileged `node` user. Environment: README.md, "Configuration". Used by compose.yaml.
#
#   docker build -t parley .
#   docker build --build-arg EMBEDDED_AI=false -t parley:slim .   (no Debian AI engines; the
#                                                                   server says at start-up what is off)
#
# Not built on the development machine (it has no container engine): see docs/deployment.md.

ARG NODE_IMAGE=node:22-bookworm-slim

# ------------------------------------------------------------------------------------- build
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/package.json
COPY apps/web/package.json apps/web/package.json
COPY packages/protocol/package.json packages/protocol/package.json
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/protocol packages/protocol
COPY apps/server apps/server
COPY apps/web apps/web
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# ----------------------------------------------------------------------------------- runtime
FROM ${NODE_IMAGE} AS runtime
# The embedded AI engines and the PDF fonts (scripts/install-system-deps.sh --runtime, less
# Janus, which runs as its own container). EMBEDDED_AI=false leaves them out: a configured
# OpenAI-compatible API (AI_BASE_URL) or LibreTranslate then serves the AI features.
ARG EMBEDDED_AI=true
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates fonts-dejavu-core \
 && if [ "$EMBEDDED_AI" = "true" ]; then \
      apt-get install -y --no-install-recommends libpocketsphinx3 pocketsphinx-en-us ffmpeg \
        apertium apertium-eng-spa apertium-fr-es apertium-es-pt apertium-spa-ita; \
    fi \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MEDIA_PROVIDER=janus
WORKDIR /app
# The layout main.js expects: apps/server/{dist,drizzle,assets} (migrations and background
# pictures are found beside dist/), the SPA in apps/web/dist, dependencies in node_modules.
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules node_modules
COPY --from=build --chown=root:root /app/packages/protocol packages/protocol
COPY --from=build --chown=root:root /app/apps/server/package.json apps/server/package.json
COPY --from=build --chown=root:root /app/apps/server/dist apps/server/dist
COPY --from=build --chown=root:root /app/apps/server/drizzle apps/server/drizzle
COPY --from=build --chown=root:root /app/apps/server/assets apps/server/assets
COPY --from=build --chown=root:root /app/apps/web/package.json apps/web/package.json
COPY --from=build --chown=root:root /app/apps/web/dist apps/web/dist
# The code belongs to root and is read-only for the server; only DATA_DIR is the node user's
# (uploaded files, development keys, the embedded database when DATABASE_URL is unset).
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
# /api/health answers without the database (liveness); the proxy routes on it too.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM reaches node directly (exec form, PID 1): the instance drains (close 1001, its clients
# resume on the other instance) and exits; compose's stop_grace_period leaves it the time.
CMD ["node", "apps/server/dist/main.js"]
