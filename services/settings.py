"""Every environment variable a Tapete process reads, read once, into one frozen object.

Each process builds ``Settings.from_env()`` once at its start (the gunicorn app factories,
the consumers' and the worker's ``main``, the gunicorn config) and hands it, or the part
of it they need, to what it builds; nothing else reads the environment. The variables,
their defaults and who reads them are listed in docs/operations.md ("Configuration").
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from shared.bots.reflexes import Reflexes
from shared.eventstore import Durability
from shared.feedgroup import GroupSettings, process_name

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_RULES_URL = "http://127.0.0.1:8001"
DEFAULT_LOBBY_URL = "http://127.0.0.1:8000"
DEFAULT_HISTORY_URL = "http://127.0.0.1:8002"
GATEWAY_UPSTREAMS = {
    "lobby": "http://127.0.0.1:8000",
    "rules": "http://127.0.0.1:8001",
    "history": "http://127.0.0.1:8002",
    "feed": "http://127.0.0.1:8003",
}


def upstreams_from_env(env: Mapping[str, str]) -> dict[str, str]:
    """Each backend's base URL: `<NAME>_URL`, else `<NAME>_PORT` on localhost (the Procfile's)."""
    found = {}
    for name, default in GATEWAY_UPSTREAMS.items():
        port = env.get(f"{name.upper()}_PORT")
        found[name] = env.get(f"{name.upper()}_URL") or (
            f"http://127.0.0.1:{port}" if port else default
        )
    return found


# -- secrets ------------------------------------------------------------------------------------
# Outside development (TAPETE_DEV) a process refuses to start without each secret it needs,
# or with one that is a placeholder, a development key or too short; in development a
# missing key is replaced by its development key, which anyone who reads this file knows.
DEV_STATE_KEY = "tapete-development-key-not-for-production"
DEV_BOT_TOKEN_KEY = "tapete-development-bot-token-key"
PLACEHOLDER_WORDS = ("replace-me", "replace_me", "changeme", "change-me")
PLACEHOLDERS = {"secret", "password", "example", "test", "dev", "none", "null", "todo", "xxx"}
GENERATE = "openssl rand -hex 32"


@dataclass(frozen=True)
class Secret:
    """A secret setting: its variable, what an attacker could do if it were known, and the
    fewest characters it may have."""

    variable: str
    risk: str
    min_length: int


STATE_KEY = Secret(
    "TAPETE_STATE_KEY", "anyone could forge a match's sealed state, hidden cards included", 32
)
BOT_TOKEN_KEY = Secret(
    "TAPETE_BOT_TOKEN_KEY",
    "anyone could compute a bot seat's token, read its hand and play or resign for it", 32,
)  # fmt: skip
REDIS_PASSWORD = Secret(
    "REDIS_PASSWORD", "Redis would take commands from anyone who reaches it", 16
)  # (or a password inside REDIS_URL and RQ_REDIS_URL)
# What each process needs, by its role: the lobby's is the feed's (the same app) and the bot
# workers' (they derive bot seats' tokens through the lobby's application layer).
SECRETS_OF: dict[str, tuple[Secret, ...]] = {
    "rules": (STATE_KEY,),
    "lobby": (BOT_TOKEN_KEY, REDIS_PASSWORD),
    "history": (REDIS_PASSWORD,),
    "history-consumer": (REDIS_PASSWORD,),
    "bots-dispatcher": (REDIS_PASSWORD,),
}


class MissingSecret(SystemExit):
    """A process stops at its start, with one line saying which variable and why: a
    SystemExit, so the line is all that is printed (no traceback) and nothing catches it."""


def known_value(value: str) -> str | None:
    """Why ``value`` is no secret at all: a placeholder or a development key (None: neither)."""
    lowered = value.strip().lower()
    if any(word in lowered for word in PLACEHOLDER_WORDS) or lowered in PLACEHOLDERS:
        return "is a placeholder"
    if value in (DEV_STATE_KEY, DEV_BOT_TOKEN_KEY):
        return "is a development key, which is written in the source"
    return None


def secret_problem(secret: Secret, value: str | None) -> str | None:
    """Why ``value`` cannot be ``secret`` (None: it can)."""
    if not value or not value.strip():
        return "is not set"
    if known := known_value(value):
        return known
    if len(value) < secret.min_length:
        return f"is too short ({len(value)} characters, at least {secret.min_length})"
    return None


def refusal(variable: str, problem: str, risk: str) -> str:
    return (
        f"{variable} {problem}: {risk}. Set it to 32 random bytes ({GENERATE}), "
        "or TAPETE_DEV=1 on a development machine"
    )


DEFAULT_METRICS_ADDR = "0.0.0.0"
CLUSTER_FEED_PARTITIONS = 64  # several per shard, so a cluster can spread the matches


# A load tool (the test suites, the benches, the chaos drill) plays from one address with a few
# players, far past what one client may do: it runs the services with the per-client limits
# raised out of the way (the limits at their defaults are tested in process, test_limits.py).
LOAD_TOOL_LIMITS = {
    "LIMIT_REGISTER": "1000000/minute",
    "LIMIT_NEW_MATCHES": "1000000/minute",
    "LIMIT_MOVES": "1000000/minute",
    "LIMIT_STREAM_TICKETS": "1000000/minute",
    "FEED_STREAMS_PER_PLAYER": "1000000",
    "OPEN_MATCHES_PER_PLAYER": "1000000",
}


@dataclass(frozen=True)
class DispatcherSettings(GroupSettings):
    """The bot dispatcher's consumer-group settings (``BOTS_*``), plus its watchdog's."""

    block_ms: int = 500
    retry_after_s: float = 10.0  # a job not ended this long after it was due is redone
    retry_max_s: float = 60.0  # each redo waits twice as long as the last, up to this
    sweep_every_s: float = 0.5


@dataclass(frozen=True)
class Metrics:
    """Where a process without an HTTP app serves ``/metrics``; ``port`` None: nowhere."""

    port: int | None = None
    addr: str = DEFAULT_METRICS_ADDR

    @classmethod
    def from_env(cls, env: Mapping[str, str], prefix: str) -> Metrics:
        port = env.get(f"{prefix}_PORT")
        return cls(int(port) if port else None, env.get(f"{prefix}_ADDR", cls.addr))


def _flag(raw: str) -> bool:
    """A yes/no variable: 1, true, yes or on (any case) is yes; unset or empty is no."""
    value = raw.strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"not a yes/no value: {raw!r}")


def with_password(url: str, password: str | None) -> str:
    """``url`` with ``password`` (``REDIS_PASSWORD``) in it, unless it has one already: the
    password comes from a Secret, the rest of the URL may come from anywhere. The user (an
    ACL user, docs/operations.md) is the URL's, else Redis' ``default``."""
    parts = urlsplit(url)
    if not password or parts.password is not None:
        return url
    user = parts.username or "default"
    host = parts.netloc.rpartition("@")[2]
    netloc = f"{quote(user, safe='')}:{quote(password, safe='')}@{host}"
    return urlunsplit(parts._replace(netloc=netloc))


def _max_waiting(threads: int) -> int:
    """Long-polls waiting at once per lobby process: 3/4 of its threads, so the rest stay free
    for moves and views whatever the clients do."""
    return max(1, threads * 3 // 4)


def _csv(value: str) -> tuple[str, ...]:
    """A comma-separated variable's items, blanks left out."""
    return tuple(item.strip() for item in value.split(",") if item.strip())


@dataclass(frozen=True)
class Settings:
    # where things are
    redis_url: str = DEFAULT_REDIS_URL  # REDIS_URL: the match store (+ REDIS_PASSWORD)
    rq_redis_url: str = DEFAULT_REDIS_URL  # RQ_REDIS_URL: the bots' queue (default: REDIS_URL)
    rules_url: str = DEFAULT_RULES_URL  # RULES_URL
    lobby_url: str = DEFAULT_LOBBY_URL  # LOBBY_URL
    history_url: str = DEFAULT_HISTORY_URL  # HISTORY_URL (quick match's ratings; make demo)
    # make run's gateway: where it listens, and each backend (<NAME>_URL, else <NAME>_PORT)
    gateway_host: str = "127.0.0.1"  # GATEWAY_HOST
    gateway_port: int = 8080  # GATEWAY_PORT
    gateway_upstreams: Mapping[str, str] = field(default_factory=lambda: dict(GATEWAY_UPSTREAMS))
    redis_cluster: bool = False  # REDIS_CLUSTER=1: REDIS_URL names a node of a Redis Cluster
    feed_partitions: int = 1  # FEED_PARTITIONS: the same everywhere (cluster: 64)
    durability: Durability = Durability()  # REDIS_ACK_REPLICAS, REDIS_ACK_FSYNC, _TIMEOUT_MS
    # finished matches to cold storage (history consumer and service)
    archive_after_s: float | None = None  # ARCHIVE_AFTER_S: after their finish (unset: never)
    archive_dir: str = "var/archive"  # ARCHIVE_DIR: the directory store
    archive_s3_bucket: str | None = None  # ARCHIVE_S3_BUCKET: S3 instead of the directory
    archive_s3_prefix: str = ""  # ARCHIVE_S3_PREFIX
    archive_s3_endpoint: str | None = None  # ARCHIVE_S3_ENDPOINT (unset: AWS)
    # the streaming feed (the lobby app on gevent, gunicorn_feed_conf.py)
    feed_workers: int = 1  # FEED_WORKERS: gunicorn workers of a feed process
    feed_max_streams: int = 20000  # FEED_MAX_STREAMS: open streams per feed worker
    feed_buffer: int = 256  # FEED_BUFFER: entries a stream may fall behind before it is dropped
    listing_shards: int = 16  # LISTING_SHARDS: slots each match list index spreads over
    feed_heartbeat_seconds: float = 15.0  # FEED_HEARTBEAT_SECONDS: a comment on idle streams
    # (and the time a stream's client has to take each write before its stream is closed)
    feed_streams_per_player: int = 16  # FEED_STREAMS_PER_PLAYER: open at once, every process
    feed_send_buffer: int = 65536  # FEED_SEND_BUFFER: bytes the kernel keeps for a stream
    # browsers: origins whose pages may call the HTTP services (none: same-origin only)
    cors_origins: tuple[str, ...] = ()  # CORS_ORIGINS, comma-separated; "*" for any
    # the lobby's idle limit: a running match with no entry for this long ends as abandoned
    match_idle_limit_s: float = 86400.0  # MATCH_IDLE_LIMIT_S
    # a new match's bot pace when its creator names none: the seconds a bot's move waits after
    # the entry before it, in a match with a person (0: at once; the tests' setting)
    bot_pace_s: float = 1.0  # BOT_PACE_S
    # the key bot seat tokens are derived from (None: unset; see with_secrets)
    bot_token_key: str | None = None  # TAPETE_BOT_TOKEN_KEY
    # logs, metrics and health
    heartbeat_dir: str | None = None  # HEARTBEAT_DIR: the consumer's, dispatcher's, worker's
    log_level: str = "INFO"  # LOG_LEVEL
    slow_request_ms: float = 250.0  # SLOW_REQUEST_MS
    prometheus_multiproc_dir: str | None = None  # PROMETHEUS_MULTIPROC_DIR
    # HTTP services (gunicorn_conf.py) and the lobby's long-polls
    gunicorn_workers: int = 2  # GUNICORN_WORKERS
    gunicorn_threads: int = 4  # GUNICORN_THREADS
    gunicorn_timeout: int = 60  # GUNICORN_TIMEOUT
    gunicorn_graceful_timeout: int = 30  # GUNICORN_GRACEFUL_TIMEOUT
    lobby_max_waiting: int = _max_waiting(4)  # LOBBY_MAX_WAITING (default: 3/4 of the threads)
    # limits on what one client may ask for (docs/operations.md, "Limits"); rates as the
    # limits library parses them: "30/minute", "5 per second", "100/hour;10/minute"
    limit_register: str = "30/minute"  # LIMIT_REGISTER: new players per client address
    limit_new_matches: str = "20/minute"  # LIMIT_NEW_MATCHES: matches created per player
    limit_moves: str = "300/minute"  # LIMIT_MOVES: actions submitted per player
    limit_stream_tickets: str = "60/minute"  # LIMIT_STREAM_TICKETS: stream tickets per player
    forwarded_hops: int = 0  # FORWARDED_HOPS: proxies in front whose X-Forwarded-For is trusted
    open_matches_per_player: int = 10  # OPEN_MATCHES_PER_PLAYER: created and not started
    open_match_idle_s: int = 3600  # OPEN_MATCH_IDLE_S: an open match unchanged this long goes
    # the lobby refuses new matches (503) once Redis uses this share of its maxmemory, so moves
    # of running matches still have room; 0 turns the check off
    new_match_memory_fraction: float = 0.8  # NEW_MATCH_MEMORY_FRACTION
    redis_maxmemory: str = "512mb"  # REDIS_MAXMEMORY: the embedded server's (make run)
    # the rules service's seal
    state_key: str | None = None  # TAPETE_STATE_KEY (None: unset; see with_secrets)
    dev: bool = False  # TAPETE_DEV=1: development (make run, the tests): development keys
    state_keys_previous: tuple[str, ...] = ()  # TAPETE_STATE_KEYS_PREVIOUS, comma-separated
    # the history consumer (HISTORY_*)
    history_consumer: GroupSettings = field(
        default_factory=lambda: GroupSettings(name=process_name())
    )
    history_consumer_metrics: Metrics = Metrics()  # HISTORY_CONSUMER_METRICS_PORT, _ADDR
    # the bot dispatcher (BOTS_*) and workers
    bots_dispatcher: DispatcherSettings = field(
        default_factory=lambda: DispatcherSettings(name=process_name())
    )
    bots_dispatcher_metrics: Metrics = Metrics()  # BOTS_DISPATCHER_METRICS_PORT, _ADDR
    bots_worker_name: str = field(default_factory=process_name)  # BOTS_WORKER_NAME
    bots_worker_metrics: Metrics = Metrics()  # BOTS_WORKER_METRICS_PORT, _ADDR
    # bots in reflex windows: BOTS_REFLEX_MEDIAN_S, _SPREAD, _FASTEST_S, _MISS
    bot_reflexes: Reflexes = Reflexes()
    bots_maintenance_s: int = 60  # BOTS_MAINTENANCE_S: rq's registry cleaning
    rq_log_level: str = "WARNING"  # RQ_LOG_LEVEL
    # fault injection for the tests: a bot job sleeps there (never in production)
    bots_pause_before_submit_s: float = 0.0  # BOTS_PAUSE_BEFORE_SUBMIT_S
    bots_pause_after_submit_s: float = 0.0  # BOTS_PAUSE_AFTER_SUBMIT_S
    # traces (services/tracing.py): exported by OTLP where an endpoint is set, else off; the
    # exporter reads its other OTEL_EXPORTER_OTLP_* variables itself
    otel_endpoint: str | None = None  # OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT)

    def with_secrets(self, process: str) -> Settings:
        """These settings with the secrets ``process`` needs (``SECRETS_OF``) checked: outside
        development a missing, placeholder, development or too short one raises
        ``MissingSecret``; in development a missing key becomes its development key (and
        what is given is used as it is)."""
        needed = SECRETS_OF[process]
        passwords = [
            unquote(urlsplit(u).password or "") for u in (self.redis_url, self.rq_redis_url)
        ]
        given = {
            STATE_KEY: self.state_key,
            BOT_TOKEN_KEY: self.bot_token_key,
            REDIS_PASSWORD: min(passwords, key=len),  # every Redis URL must carry one
        }
        if not self.dev:
            for secret in needed:
                if problem := secret_problem(secret, given[secret]):
                    raise MissingSecret(refusal(secret.variable, problem, secret.risk))
            for old in self.state_keys_previous if STATE_KEY in needed else ():
                if problem := known_value(old):
                    risk = "a state sealed with it would still be accepted"
                    raise MissingSecret(
                        refusal("TAPETE_STATE_KEYS_PREVIOUS", f"holds a key that {problem}", risk)
                    )
            return self
        for secret in (STATE_KEY, BOT_TOKEN_KEY):
            if secret in needed and not given[secret]:
                logging.getLogger("tapete.settings").warning(
                    "%s is not set: using its development key (TAPETE_DEV)", secret.variable
                )
        return dataclasses.replace(
            self,
            state_key=self.state_key or DEV_STATE_KEY,
            bot_token_key=self.bot_token_key or DEV_BOT_TOKEN_KEY,
        )

    @classmethod
    def for_process(cls, process: str, env: Mapping[str, str] = os.environ) -> Settings:
        """The environment's settings for ``process``, its secrets checked (``with_secrets``)."""
        return cls.from_env(env).with_secrets(process)

    def rq_url(self) -> str:
        """Where rq's queue is (the dispatcher and the workers): never the cluster, whose
        slots rq's transactions would span; a cluster without RQ_REDIS_URL stops them here."""
        if self.redis_cluster and self.rq_redis_url == self.redis_url:
            raise ValueError("REDIS_CLUSTER needs RQ_REDIS_URL: rq runs on a plain Redis")
        return self.rq_redis_url

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        """Every setting from its variable, else its default. A malformed number raises here,
        at the process's start, rather than later in a request or a job."""
        d = cls()  # the defaults, each written once: in the fields above
        password = env.get("REDIS_PASSWORD") or None
        redis_url = with_password(env.get("REDIS_URL", d.redis_url), password)
        cluster = _flag(env.get("REDIS_CLUSTER", ""))
        partitions = CLUSTER_FEED_PARTITIONS if cluster else d.feed_partitions
        threads = int(env.get("GUNICORN_THREADS", d.gunicorn_threads))
        return cls(
            redis_url=redis_url,
            rq_redis_url=with_password(env.get("RQ_REDIS_URL") or redis_url, password),
            rules_url=env.get("RULES_URL", d.rules_url),
            lobby_url=env.get("LOBBY_URL", d.lobby_url),
            history_url=env.get("HISTORY_URL", d.history_url),
            gateway_host=env.get("GATEWAY_HOST", d.gateway_host),
            gateway_port=int(env.get("GATEWAY_PORT", d.gateway_port)),
            gateway_upstreams=upstreams_from_env(env),
            redis_cluster=cluster,
            feed_partitions=int(env.get("FEED_PARTITIONS", partitions)),
            durability=Durability(
                replicas=int(env.get("REDIS_ACK_REPLICAS", d.durability.replicas)),
                fsync=_flag(env.get("REDIS_ACK_FSYNC", "")),
                timeout_ms=int(env.get("REDIS_ACK_TIMEOUT_MS", d.durability.timeout_ms)),
            ),
            archive_after_s=float(env["ARCHIVE_AFTER_S"]) if env.get("ARCHIVE_AFTER_S") else None,
            archive_dir=env.get("ARCHIVE_DIR") or d.archive_dir,
            archive_s3_bucket=env.get("ARCHIVE_S3_BUCKET") or None,
            archive_s3_prefix=env.get("ARCHIVE_S3_PREFIX", d.archive_s3_prefix),
            archive_s3_endpoint=env.get("ARCHIVE_S3_ENDPOINT") or None,
            feed_workers=int(env.get("FEED_WORKERS", d.feed_workers)),
            feed_max_streams=int(env.get("FEED_MAX_STREAMS", d.feed_max_streams)),
            feed_buffer=int(env.get("FEED_BUFFER", d.feed_buffer)),
            listing_shards=int(env.get("LISTING_SHARDS", d.listing_shards)),
            feed_heartbeat_seconds=float(
                env.get("FEED_HEARTBEAT_SECONDS", d.feed_heartbeat_seconds)
            ),
            feed_streams_per_player=int(
                env.get("FEED_STREAMS_PER_PLAYER", d.feed_streams_per_player)
            ),
            feed_send_buffer=int(env.get("FEED_SEND_BUFFER", d.feed_send_buffer)),
            cors_origins=_csv(env.get("CORS_ORIGINS", "")),
            match_idle_limit_s=float(env.get("MATCH_IDLE_LIMIT_S", d.match_idle_limit_s)),
            bot_pace_s=float(env.get("BOT_PACE_S", d.bot_pace_s)),
            bot_token_key=env.get("TAPETE_BOT_TOKEN_KEY") or None,
            log_level=env.get("LOG_LEVEL", d.log_level),
            heartbeat_dir=env.get("HEARTBEAT_DIR") or None,
            slow_request_ms=float(env.get("SLOW_REQUEST_MS", d.slow_request_ms)),
            prometheus_multiproc_dir=env.get("PROMETHEUS_MULTIPROC_DIR") or None,
            gunicorn_workers=int(env.get("GUNICORN_WORKERS", d.gunicorn_workers)),
            gunicorn_threads=threads,
            gunicorn_timeout=int(env.get("GUNICORN_TIMEOUT", d.gunicorn_timeout)),
            gunicorn_graceful_timeout=int(
                env.get("GUNICORN_GRACEFUL_TIMEOUT", d.gunicorn_graceful_timeout)
            ),
            lobby_max_waiting=int(env.get("LOBBY_MAX_WAITING", _max_waiting(threads))),
            limit_register=env.get("LIMIT_REGISTER", d.limit_register),
            limit_new_matches=env.get("LIMIT_NEW_MATCHES", d.limit_new_matches),
            limit_moves=env.get("LIMIT_MOVES", d.limit_moves),
            limit_stream_tickets=env.get("LIMIT_STREAM_TICKETS", d.limit_stream_tickets),
            forwarded_hops=int(env.get("FORWARDED_HOPS", d.forwarded_hops)),
            open_matches_per_player=int(
                env.get("OPEN_MATCHES_PER_PLAYER", d.open_matches_per_player)
            ),
            open_match_idle_s=int(env.get("OPEN_MATCH_IDLE_S", d.open_match_idle_s)),
            new_match_memory_fraction=float(
                env.get("NEW_MATCH_MEMORY_FRACTION", d.new_match_memory_fraction)
            ),
            redis_maxmemory=env.get("REDIS_MAXMEMORY", d.redis_maxmemory),
            state_key=env.get("TAPETE_STATE_KEY") or None,
            dev=env.get("TAPETE_DEV", "").strip().lower() in ("1", "true", "yes"),
            state_keys_previous=_csv(env.get("TAPETE_STATE_KEYS_PREVIOUS", "")),
            history_consumer=GroupSettings.from_env("HISTORY", "HISTORY_CONSUMER_NAME", env),
            history_consumer_metrics=Metrics.from_env(env, "HISTORY_CONSUMER_METRICS"),
            bots_dispatcher=DispatcherSettings.from_env("BOTS", "BOTS_DISPATCHER_NAME", env),
            bots_dispatcher_metrics=Metrics.from_env(env, "BOTS_DISPATCHER_METRICS"),
            bots_worker_name=env.get("BOTS_WORKER_NAME") or d.bots_worker_name,
            bots_worker_metrics=Metrics.from_env(env, "BOTS_WORKER_METRICS"),
            bot_reflexes=Reflexes.from_env(env),
            bots_maintenance_s=int(env.get("BOTS_MAINTENANCE_S", d.bots_maintenance_s)),
            rq_log_level=env.get("RQ_LOG_LEVEL", d.rq_log_level),
            bots_pause_before_submit_s=float(env.get("BOTS_PAUSE_BEFORE_SUBMIT_S") or 0),
            bots_pause_after_submit_s=float(env.get("BOTS_PAUSE_AFTER_SUBMIT_S") or 0),
            otel_endpoint=env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            or env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
            or None,
        )
