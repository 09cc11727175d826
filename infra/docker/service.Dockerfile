# syntax=docker/dockerfile:1
# One image recipe for every service (and for the one-shot migrator):
#
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE=session --build-arg PORT=8082 -t payment-gateway/session .
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE=migrate -t payment-gateway/migrate .
#
# SERVICE is a folder under services/, or `migrate`: an image holding @gateway/db and the
# migrations of every service that owns a schema (those with a migrate entry), whose entry
# (infra/docker/migrate-all.mjs) creates the roles and schemas and migrates.
#
# Stage 1 builds the whole workspace once (npm ci + tsc -b; the layer is shared by
# every SERVICE); stage 2 installs the production dependencies of every workspace once
# (shared too); stage 3 assembles what one SERVICE needs, its dependencies pruned to what
# it can load (infra/docker/prune-deps.mjs); stage 4 is the runtime: Debian with the
# node binary alone (no npm, yarn or corepack), the assembled folder, a non-root user.
# It runs with a read-only root filesystem.
#
# NODE_IMAGE builds, RUNTIME_IMAGE runs; both are public images. Where no registry is
# reachable, `make images` (infra/images/build.mjs) makes local images of those names.

ARG NODE_IMAGE=node:20.20-bookworm-slim
ARG RUNTIME_IMAGE=debian:bookworm-slim

# --- 1. build -----------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && npx tsc -b \
 && rm -rf packages/*/dist/test services/*/dist/test tests/*/dist packages/*/dist/*.tsbuildinfo services/*/dist/*.tsbuildinfo

# --- 2. production dependencies of the whole workspace, once --------------------
# No SERVICE argument here: this layer is shared by every image, and each image's
# stage 3 keeps only what its service loads. A package's bin (the SDK's gateway
# command) must exist for npm ci to link it.
FROM build AS deps
RUN set -eu; \
    mkdir -p /deps; \
    cp package.json package-lock.json /deps/; \
    for dir in packages/* services/* tests/*; do mkdir -p "/deps/$dir"; cp "$dir/package.json" "/deps/$dir/"; done; \
    for dir in packages/*; do if [ -d "$dir/bin" ]; then cp -r "$dir/bin" "/deps/$dir/"; fi; done; \
    cd /deps; \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund; \
    rm -f package-lock.json

# --- 3. assemble what SERVICE needs -------------------------------------------
# npm installed the production dependencies of every workspace: prune-deps.mjs keeps
# only what SERVICE (or, for migrate, @gateway/db and the migrations) can load.
FROM deps AS assemble
ARG SERVICE
RUN set -eu; \
    schema_owners="$(for dir in services/*; do if [ -f "$dir/dist/src/migrate.js" ]; then printf '%s ' "${dir#services/}"; fi; done)"; \
    if [ "${SERVICE:-}" = migrate ]; then services="$schema_owners"; entries="packages/db"; \
    elif [ -n "${SERVICE:-}" ] && [ -f "services/${SERVICE}/package.json" ]; then services="$SERVICE"; entries=""; \
    else echo "build-arg SERVICE must be one of: $(ls services | tr '\n' ' ')migrate" >&2; exit 1; fi; \
    cp -a /deps /out; \
    for dir in packages/*; do [ -d "$dir/dist/src" ] && cp -r "$dir/dist" "/out/$dir/"; done; \
    for dir in packages/*; do if [ -d "$dir/migrations" ]; then cp -r "$dir/migrations" "/out/$dir/"; fi; done; \
    for name in $services; do \
      cp -r "services/$name/dist" "/out/services/$name/"; \
      if [ -d "services/$name/migrations" ]; then cp -r "services/$name/migrations" "/out/services/$name/"; fi; \
      entries="$entries services/$name"; \
    done; \
    if [ "$SERVICE" = migrate ]; then mkdir -p /out/infra/docker; cp infra/docker/migrate-all.mjs /out/infra/docker/; fi; \
    node infra/docker/prune-deps.mjs /out $entries

# --- 4. runtime ---------------------------------------------------------------
FROM ${RUNTIME_IMAGE} AS runtime
# The `node` user of the official Node image, by the same numbers, so that
# Kubernetes' runAsNonRoot can check it and files keys mounted for 1000 stay readable.
# These two layers come before any SERVICE argument: every service image shares them.
RUN groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/sh --no-create-home --home-dir /app node
COPY --from=build /usr/local/bin/node /usr/local/bin/node
ARG SERVICE
ARG PORT=8080
ENV NODE_ENV=production \
    SERVICE=${SERVICE} \
    PORT=${PORT}
WORKDIR /app
COPY --from=assemble /out/ ./
USER 1000:1000
EXPOSE ${PORT}
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `exec` so that node is PID 1's replacement and receives SIGTERM (graceful shutdown).
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/src/main.js"]
