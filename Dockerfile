# syntax=docker/dockerfile:1
# miti99bot container image: long polling, in-process cron, HTTP on 8080.
# Build: docker build --build-arg GIT_SHA=$(git rev-parse --short HEAD) -t miti99bot .
# Coolify passes the deployed commit as the SOURCE_COMMIT build argument,
# which wins over GIT_SHA, so the deploy notice needs nothing typed by hand.

# The Mini App's chart library, at the version tools/webapp/package-lock.json pins,
# checked against it, with the Go file that declares it (make webapp-assets' step).
FROM node:22-bookworm-slim AS webapp
WORKDIR /src
COPY tools/webapp/package.json tools/webapp/package-lock.json tools/webapp/assets.mjs tools/webapp/
RUN npm ci --prefix tools/webapp --no-audit --no-fund --ignore-scripts \
 && node tools/webapp/assets.mjs

FROM golang:1.27.3-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=webapp /src/internal/webapp/ internal/webapp/
ARG SOURCE_COMMIT=""
ARG GIT_SHA=""
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X github.com/miti99bot/miti99bot/internal/buildinfo.GitSHA=${SOURCE_COMMIT:-${GIT_SHA}}" \
      -o /out/miti99bot ./cmd/container \
 && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/botctl ./cmd/botctl \
 && mkdir -p /out/data /out/backups

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/miti99bot /miti99bot
# The operator's tool, for what must run beside the bot's volumes with no
# shell in the image: restoring a snapshot (docs/backup.md), cron status.
COPY --from=build /out/botctl /botctl
# The embedded store's directory and the snapshots' (BACKUP_DIR=/backups),
# owned by the user the bot runs as, so named volumes mounted here start
# writable (BOLT_PATH=/data/miti99bot.db).
COPY --from=build --chown=nonroot:nonroot /out/data /data
COPY --from=build --chown=nonroot:nonroot /out/backups /backups
USER nonroot:nonroot
EXPOSE 8080
# distroless has no curl: the binary checks its own /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["/miti99bot", "-healthcheck"]
ENTRYPOINT ["/miti99bot"]
