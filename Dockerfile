# syntax=docker/dockerfile:1
# patchsmith: the GitHub App (`patchsmith serve`) in a small runtime image.
#
# Build:  docker build -t patchsmith .
# Run:    docker run --env-file patchsmith.env -p 3000:3000 \
#           --security-opt seccomp=unconfined --security-opt apparmor=unconfined patchsmith
# Scaled out (the App, Redis and two workers): compose.yaml.
#
# Tests of the repositories patchsmith fixes run inside bubblewrap (no network, no secrets, own PID namespace).
# bwrap creates user, PID and network namespaces; Docker's default seccomp profile (and AppArmor on Ubuntu hosts)
# blocks the unshare/clone calls it needs, so bwrap fails with "Operation not permitted". Either run with the
# options above, or give Docker a seccomp profile that allows `unshare`, `clone` with namespace flags, `setns`
# and `mount` (start from Docker's default profile). Without a working bwrap, set PATCHSMITH_TEST_SANDBOX=none
# only if you accept running untrusted test code unsandboxed inside the container.

# The current Node LTS (26, Active LTS since 2026-10-28); the code also runs on Node 20.18+, which CI tests.
ARG NODE_VERSION=26

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# git: clones and pushes. bubblewrap: the sandbox of set-up and tests. ca-certificates: HTTPS to GitHub, the model
# and the registries. python3 with venv: the set-up of Python repositories (Node's npm and corepack come with the
# base image). Go or Rust repositories need their toolchain added to a derived image (on the PATH, or named in
# PATCHSMITH_SANDBOX_READONLY).
RUN apt-get update \
  && apt-get install -y --no-install-recommends git bubblewrap ca-certificates tini python3 python3-venv \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY app.yml ./
# A non-root user; clones live in its temp folder and are removed after each job.
RUN useradd --create-home --uid 10001 patchsmith \
  && mkdir -p /data && chown patchsmith /data
USER patchsmith
# The durable job queue: mount a volume here so queued jobs survive a new container.
ENV PATCHSMITH_DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini forwards SIGTERM so running jobs can finish before the container stops.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/cli.js", "serve"]
