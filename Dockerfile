# rollbook's image: a thin wrapper over scripts/serve-container (docs/deploy.md). Build: docker build -t rollbook .
# Stage 1 builds the wheel (the .po catalogues compiled into it); stage 2 installs it and nothing else.
FROM python:3.12-slim AS build
WORKDIR /src
COPY . .
RUN pip install --no-cache-dir build && python -m build --wheel --outdir /wheels

FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    ROLLBOOK_SECRET_KEY_FILE=/run/secrets/rollbook_secret ROLLBOOK_WORKERS=2 ROLLBOOK_PORT=8000
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /srv/rollbook --create-home rollbook \
    && mkdir /data && chown rollbook /data   # a single-container SQLite store: docker run -v rollbook-data:/data
COPY --chmod=0755 scripts/serve-container /usr/local/bin/serve-container
USER rollbook
WORKDIR /srv/rollbook
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/api/health' % os.environ.get('ROLLBOOK_PORT', '8000'), timeout=4)"]
ENTRYPOINT ["serve-container"]
