#!/usr/bin/env bash
# Builds the web app and the server into bench/dist/<tag>/ (ignored by git) instead of the shared
# apps/*/dist, so a benchmark can run on a fixed build while others keep editing and building the
# working tree. Run a benchmark on it with BENCH_BUILD=bench/dist/<tag>. BUILD_SRC=<dir> builds the
# sources of another checkout (a `git worktree` of an older commit) into the same place.
set -euo pipefail
cd "$(dirname "$0")/../.."
tag="${1:?usage: build-private.sh <tag>}"
out="$PWD/bench/dist/$tag"
mkdir -p "$out/server/dist"
cd "${BUILD_SRC:-.}"
(cd apps/web && npx vite build --outDir "$out/web" --emptyOutDir --logLevel warn)
# Bundled as apps/server/build.mjs does (dependencies external, the protocol compiled in).
(cd apps/server && node --input-type=module -e "
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@parley/'));
await build({
  entryPoints: ['src/main.ts'], outfile: process.argv[1], bundle: true, platform: 'node',
  target: 'node20', format: 'esm', external: [...external, ...external.map((d) => d + '/*')],
  banner: { js: \"import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);\" },
  logLevel: 'warning',
});" "$out/server/dist/main.js")
# The server finds its migrations beside its dist folder.
ln -sfn "$PWD/apps/server/drizzle" "$out/server/drizzle"
git rev-parse HEAD >"$out/commit"
git status --porcelain >"$out/dirty"
echo "built $out at $(cat "$out/commit")"
