# syntax=docker/dockerfile:1
#
# One image runs every service; the container's command picks which one:
#   node dist/apps/<service>/src/main.js        (gateway, messaging, scheduler, presence,
#                                                users-groups, uploads, push)
#   node dist/tools/admin/admin-cli.js <command> (the admin command line)
#
# Targets:
#   runtime (the default, last stage)  production dependencies + dist/; every service runs from it.
#   migrate                            `prisma migrate deploy`, run once before a release.
#
# Why a separate `migrate` target instead of keeping the Prisma CLI in the runtime image:
# `prisma` is a devDependency (package.json), so `npm prune --omit=dev` removes it, and there is
# no npm flag that prunes "everything dev except prisma and its dependency tree". The migrate
# stage therefore carries the build stage's complete, lockfile-exact node_modules together with
# prisma/ and prisma.config.ts (and nothing else: no dist/, no sources). The runtime image stays
# small and holds no build tooling; the one-shot migration job pays for the bigger image.
# Build both from the same commit and give them the same tag (compose and k8s/ do).
#
# No HEALTHCHECK here on purpose: docker-compose.yml and the Kubernetes probes define them,
# each at the port its container is configured with (GATEWAY_PORT or HEALTH_PORT).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
# The Prisma CLI's update check and telemetry call home; nothing needs them in a container.
ENV CHECKPOINT_DISABLE=1

# ---- build: full dependency tree, Prisma client generation, swc into dist/ ----
FROM base AS build
COPY package.json package-lock.json ./
# --ignore-scripts: package.json's `allowScripts` denies every install script (npm 11 honours it;
# the npm 10 in this base image does not know it). In particular Prisma's install scripts try to
# download native engines; this repo uses the JS/WASM engine through the pg driver adapter.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# `prisma generate` (run by the build script) needs a valid-looking DATABASE_URL; no database is
# contacted. The build script also supplies this default itself.
RUN DATABASE_URL=postgresql://postgres@127.0.0.1:5432/teamchat node tools/build.js

# ---- prod-deps: the same tree without devDependencies ----
FROM build AS prod-deps
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---- migrate: `prisma migrate deploy` (the Prisma CLI is a devDependency, see above) ----
FROM base AS migrate
COPY --from=build /app/package.json /app/prisma.config.ts ./
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/node_modules ./node_modules
# The image's `node` user, numeric so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
CMD ["node_modules/.bin/prisma", "migrate", "deploy"]

# ---- runtime (default target): any service, chosen by the container's command ----
FROM base AS runtime
ENV NODE_ENV=production
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/prisma.config.ts ./
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/dist ./dist
# The image's `node` user, numeric so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
# Exec form: node is PID 1 and receives SIGTERM itself (Nest's shutdown hooks drain NATS).
CMD ["node", "--max-semi-space-size=128", "dist/apps/gateway/src/main.js"]
