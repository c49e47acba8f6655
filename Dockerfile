# One image for the three services and every command line:
#   docker run IMAGE archive serve | archive schedule | archive <command>
#   docker run IMAGE fuel serve | fuel scrape --country=ES
#   docker run IMAGE subtitles serve
#   docker run IMAGE all            (the three servers in one process)
# Runs as uid 1000 and writes only under /data (run it with a read-only root filesystem).

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 ships prebuilt binaries; the toolchain is the fallback when none fits the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci applies these fixes to installed packages (patch-package, the postinstall script).
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
# Compiled server code and web pages, then production dependencies only, then the TypeScript sources go:
# what stays under src/ is the data the compiled code reads (migrations, datasets, static files).
RUN npm run build \
 && npm run build:web \
 && npm prune --omit=dev --no-audit --no-fund \
 && find src -name '*.ts' -delete

FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/generated ./generated
COPY --from=build /app/src ./src
# The web pages (web/dist/<service>/), built above: the servers answer GET / with them.
COPY --from=build /app/web/dist ./web/dist
ENV NODE_ENV=production \
    DATA_DIR=/data \
    TMPDIR=/data/tmp \
    HOST=0.0.0.0 \
    HEARTBEAT_FILE=/data/backup.heartbeat
RUN mkdir -p /data/tmp && chown -R 1000:1000 /data && chmod -R 0700 /data
VOLUME /data
USER 1000:1000
EXPOSE 8000 3000 8096
# Viewer timings from the archive seed; compose.yaml gives the backup process its own (60 s, 300 s start).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["node", "/app/bin/specyard.js", "healthcheck"]
ENTRYPOINT ["tini", "--", "node", "/app/bin/specyard.js"]
CMD ["all"]
