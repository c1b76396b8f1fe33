"""The history consumer: reads every feed partition with the consumer group "history".

Delivery is at least once, the effect exactly once: a notification is acknowledged only
after ``ReadModels.catch_up`` has written its match's update (in steps each idempotent by
its own marker, the summary with the last version applied last), so a crash before the
XACK redelivers it and the redelivery finds nothing left to do. The feed only says "match M reached version V"; the entries
themselves always come from the match log.

Taking over a dead consumer's notifications, retries and dead letters are the shared
consumer-group loop's (``shared/feedgroup.py``), and its ``main`` is the one every such
loop shares (``services/consumers.py``).

    python -m services.history.consumer          # REDIS_URL, FEED_PARTITIONS, HISTORY_*
"""

from __future__ import annotations

import functools
import logging
import sys
import time

from prometheus_client import Counter, Histogram

from services import tracing
from services.consumers import consumer_store, run_group
from services.settings import Settings
from shared import feedgroup
from shared.feedgroup import FeedGroup, GroupSettings, Message

from .archive import Archive, cold_store
from .store import ReadModels

GROUP = "history"

LAG = Histogram(
    "tapete_history_lag_seconds",
    "from a feed entry's append to the read-model update that includes it",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60),
)
HANDLED = Counter("tapete_history_notifications_total", "notifications handled", ["outcome"])

log = logging.getLogger("tapete.history.consumer")
dead_key = functools.partial(feedgroup.dead_key, GROUP)


def plan(
    messages: list[Message],
) -> tuple[dict[str, tuple[int, list[str]]], list[tuple[str, Exception]]]:
    """Group a batch by match: {match: (highest version, ids)}, ordered by each match's last
    notification, and the malformed notifications with why."""
    groups: dict[str, tuple[int, list[str]]] = {}
    last: dict[str, int] = {}
    malformed: list[tuple[str, Exception]] = []
    for position, (message_id, fields) in enumerate(messages):
        try:
            match_id, version = fields["match"], int(fields["version"])
        except (KeyError, TypeError, ValueError) as exc:
            malformed.append((message_id, exc))
            continue
        upto, ids = groups.get(match_id, (0, []))
        groups[match_id] = (max(upto, version), [*ids, message_id])
        last[match_id] = position
    ordered = dict(sorted(groups.items(), key=lambda item: last[item[0]]))
    return ordered, malformed


ARCHIVE_EVERY_S = 5.0  # how often a consumer archives what is due on its partitions


class Consumer(FeedGroup):
    group = GROUP

    def __init__(
        self, models: ReadModels, settings: GroupSettings, archive: Archive | None = None
    ) -> None:
        super().__init__(models.log, settings, HANDLED, log)
        self.models = models
        self.archive = archive
        self._last_archive = float("-inf")

    def step(self) -> int:
        """Consume; now and then archive the finished matches due on this replica's share."""
        handled = super().step()
        archive, now = self.archive, time.monotonic()
        if archive and archive.after_s is not None and now - self._last_archive >= ARCHIVE_EVERY_S:
            self._last_archive = now
            archived = archive.archive_due([self.streams[s] for s in self.owned])
            if archived:
                log.info("archived %d finished matches", archived)
        return handled

    def handle(self, stream: str, messages: list[Message], retry: bool = False) -> None:
        """Bring each notified match up to its notified version, then acknowledge.

        A batch's notifications of one match make one update, up to the highest version
        among them. Matches are updated in the order of their last notification: a match's
        last one is its finish, if any, so ratings still change in the feed's order.
        """
        groups, malformed = plan(messages)
        for message_id, problem in malformed:
            self.failed(stream, [message_id], problem)
        fields = dict(messages)
        for match_id, (upto, ids) in groups.items():
            try:
                with tracing.continued("history update", [fields[i] for i in ids]):
                    applied = self.models.catch_up(match_id, upto, ids[-1])
            except Exception as exc:  # any failure is retried, and after a few, dead-lettered
                self.failed(stream, ids, exc)
                continue
            if applied is not None:
                now = time.time()
                for message_id in ids:
                    LAG.observe(max(now - int(message_id.split("-")[0]) / 1000, 0.0))
            HANDLED.labels("applied" if applied else "no-op").inc(len(ids))
            self.ack(stream, ids, retry)


def build(settings: Settings) -> Consumer:
    """The consumer on the store ``settings`` names, with its ``HISTORY_*`` settings."""
    log = consumer_store(settings)
    models = ReadModels(log.client, log, settings.archive_after_s)
    archive = Archive(models, cold_store(settings), settings.archive_after_s)
    return Consumer(models, settings.history_consumer, archive)


def main() -> int:
    return run_group(
        "history-consumer",
        build,
        lambda settings: settings.history_consumer_metrics,
        loggers=[log.name],
        doing="consuming",
    )


if __name__ == "__main__":
    sys.exit(main())
