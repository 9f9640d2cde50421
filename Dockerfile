# GPU Cluster Planner: the web app (Streamlit) with PDF export, for a team behind one database.
# Build and run: docs/deploy.md. Settings are environment variables (deploy/env.example).
#
# Pinned: the base image by its full version (pin its digest too when you mirror it:
# FROM python:3.11.11-slim-bookworm@sha256:...), Debian packages by the bookworm release, and every
# Python package, direct or transitive, by requirements.lock (deploy/lock.py writes it).
FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Chromium prints the PDF proposal, Noto CJK sets its Chinese text, poppler-utils previews pages
# (pdfinfo, pdftoppm); tini reaps Chromium's child processes.
RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium fonts-noto-cjk poppler-utils tini \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Dependencies first, so a code change does not reinstall them: exactly the packages of
# requirements.lock (the app and its sweep and netbox extras, direct and transitive, at the
# versions the tests ran with), checked first to pin every dependency of pyproject.toml inside its
# range; --no-deps installs nothing the lock lacks, and pip check fails the build if the lock is
# not a consistent set. The dev tools (requirements-dev.lock) stay out of the image.
COPY pyproject.toml README.md requirements.lock ./
COPY deploy/lock.py ./deploy/lock.py
RUN python deploy/lock.py check --pyproject pyproject.toml --lock requirements.lock \
    && pip install --no-deps -r requirements.lock \
    && pip check

# The code and its data. Installed in place (-e): the engine finds data/ and locales/ beside
# planner/, as in a checkout.
COPY planner ./planner
COPY ui ./ui
COPY pages ./pages
COPY app.py ./
COPY data ./data
COPY locales ./locales
COPY validation ./validation
COPY .streamlit/config.toml ./.streamlit/config.toml
COPY deploy ./deploy
RUN pip install --no-deps -e . \
    && chmod 0755 deploy/entrypoint.sh deploy/healthcheck.sh

# A user without privileges; its home is the only place it writes (Chromium's profile, the
# secrets file rendered from the environment). Nothing written there is needed by another replica.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin planner
USER planner
ENV HOME=/home/planner \
    BROWSER_PATH=/usr/bin/chromium \
    PLANNER_PORT=8501 \
    PLANNER_ADDRESS=0.0.0.0

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["/app/deploy/healthcheck.sh"]
ENTRYPOINT ["/usr/bin/tini", "--", "/app/deploy/entrypoint.sh"]
