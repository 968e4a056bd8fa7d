# syntax=docker/dockerfile:1
# Tabula: one image, every service. SERVICE selects the entry (gateway, auth,
# meta, data, comments, storage, integrations, hooks, or standalone).
# The build stage runs the same commands as CI (npm ci, npm run build).

ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS toolchain
# Native addons (argon2, sqlite3) build from source when no prebuilt binary fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3=3.11.* make=4.3-* g++=4:12.* \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
COPY libs/ libs/
COPY services/ services/

FROM toolchain AS build
COPY tsconfig.base.json tsconfig.json nx.json ./
COPY scripts/ scripts/
COPY proto/ proto/
RUN npm ci --no-audit --no-fund && npm run build

FROM toolchain AS prod-deps
# No lifecycle scripts (prepare would bundle, and esbuild is a dev dependency);
# then the native addons' own install scripts, which production needs.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm rebuild argon2 sqlite3 \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini=0.19.* \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 10001 tabula \
 && useradd --uid 10001 --gid tabula --no-create-home --shell /usr/sbin/nologin tabula
WORKDIR /app
ENV NODE_ENV=production \
    SERVICE=standalone \
    PORT=8080 \
    DATA_DIR=/tmp/tabula
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=prod-deps /src/package.json ./package.json
COPY --from=build /src/dist ./dist
COPY scripts/container-entry.cjs ./entry.cjs
USER 10001:10001
EXPOSE 8080
# Health is checked by the orchestrator over HTTP (/healthz, /readyz), not by a shell.
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/entry.cjs"]
