# The pbmref referee as a container image: `pbmref serve`, its data (config.yaml,
# the games, the spool) in the volume /data. README, "Run as a service", has the
# commands; tests/install/test_dockerfile.py runs this file's pbmref steps.

# Stage 1: the wheel, built from the clone.
FROM python:3.11-slim AS wheel
COPY . /src
RUN python -m pip wheel --no-cache-dir --no-deps --wheel-dir /wheels /src

# Stage 2: the referee: the runtime dependencies at their locked versions (each
# file checked against its hash) and the wheel, in a venv of their own; no
# development tool. DejaVu draws the text of the maps in the report mails.
FROM python:3.11-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
COPY requirements-runtime.lock /tmp/requirements-runtime.lock
COPY --from=wheel /wheels /tmp/wheels
RUN python -m venv /opt/pbmref \
 && /opt/pbmref/bin/pip install --no-cache-dir --require-hashes -r /tmp/requirements-runtime.lock \
 && /opt/pbmref/bin/pip install --no-cache-dir --no-deps /tmp/wheels/pbmref-*.whl \
 && rm -rf /tmp/wheels /tmp/requirements-runtime.lock
# The referee's own user, never root; it writes only in /data.
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home pbmref \
 && mkdir -p /data && chown pbmref:pbmref /data
ENV PATH=/opt/pbmref/bin:$PATH PYTHONUNBUFFERED=1
USER pbmref
WORKDIR /data
VOLUME /data
ENTRYPOINT ["pbmref"]
CMD ["serve", "--config", "/data/config.yaml"]
