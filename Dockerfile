FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DEATHCLOCK_HOST=0.0.0.0 DEATHCLOCK_PORT=8000 \
    DEATHCLOCK_DATABASE_URL=sqlite:////app/data/deathclock.db

RUN useradd --create-home --uid 10001 deathclock
WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY app ./app
COPY bench ./bench
COPY web ./web
# Compiled here: PYTHONDONTWRITEBYTECODE keeps every start from writing it, so without
# this each start would compile the whole app again (a slower restart).
RUN pip install --no-cache-dir -c constraints.txt -e '.[postgres,redis]' \
    && python -m compileall -q app bench && mkdir -p /app/data && chown deathclock /app/data

USER deathclock
EXPOSE 8000
VOLUME ["/app/data"]
CMD ["deathclock", "serve"]
