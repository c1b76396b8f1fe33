"""History benchmark: consumer lag (feed append -> read-model update) under the lobby's load.

Starts Redis (embedded unless REDIS_URL is set), the rules service and the lobby under
gunicorn, and one history consumer process with its production settings, then drives
the lobby benchmark's load (bench/lobby.py: concurrent 2-player Brisca matches, one
client process) twice: saturated (closed loop, the most moves per second) and paced
at half that rate. Every move is one log entry and one feed notification.

The lag of a notification is the time from its feed append to the first read-model
update that includes its version, both read from Redis's own clock: the feed entry's
id, and the id of the journal entry the consumer writes in the same MULTI/EXEC as the
update (store.py). Last, the read models are dropped and rebuilt from the whole feed by
a fresh consumer: its catch-up rate.

Usage: python bench/history.py [--seconds 10] [--matches 50]
"""

from __future__ import annotations

import argparse
import bisect
import os
import subprocess
import sys
import time
from collections import defaultdict
from typing import Any, cast

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import redis  # noqa: E402

from services.history.consumer import GROUP  # noqa: E402
from services.history.store import PATTERN, ReadModels  # noqa: E402
from shared.eventstore import MatchLog  # noqa: E402

TARGET_P50_MS = 50.0


def start_consumer(redis_url: str, name: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "REDIS_URL": redis_url, "HISTORY_CONSUMER_NAME": name}
    return subprocess.Popen(
        [sys.executable, "-m", "services.history.consumer"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        process.wait(15)


def wait_caught_up(client: Any, timeout: float = 120.0) -> None:
    """Until the group has read every notification and acknowledged them all."""
    feed = MatchLog(client).feed_key(0)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        groups = {g["name"]: g for g in client.xinfo_groups(feed)}
        group = groups.get(GROUP)
        if group and group["pending"] == 0 and group.get("lag") == 0:
            return
        time.sleep(0.05)
    raise RuntimeError("the history consumer did not catch up in time")


def lags_ms(client: Any, since_ms: int) -> list[float]:
    """Per feed notification since ``since_ms``: ms until a read-model update included it."""
    applied: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for row in ReadModels(client, MatchLog(client)).journal(since_ms):
        versions, times = applied[row["match"]]
        versions.append(int(row["to"]))
        times.append(_ms(row["id"]))
    lags = []
    for entry_id, fields in client.xrange(MatchLog(client).feed_key(0), min=f"{since_ms}-0"):
        versions, times = applied[fields["match"]]
        at = bisect.bisect_left(versions, int(fields["version"]))
        if at == len(versions):
            raise RuntimeError(f"no update applied {fields['match']} v{fields['version']}")
        lags.append(float(times[at] - _ms(entry_id)))
    return sorted(lags)


def _ms(stream_id: str) -> int:
    return int(stream_id.split("-")[0])


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(len(values) * share))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--matches", type=int, default=50)
    args = parser.parse_args()

    import lobby as lobby_bench  # bench/lobby.py: its load process and settings

    n, seconds = args.matches, args.seconds
    print(f"history benchmark: consumer lag under {n} concurrent Brisca matches through the "
          f"lobby, {seconds:.0f} s a run, {os.cpu_count()} cores, one consumer")  # fmt: skip
    consumer = None
    runs: dict[str, dict[str, Any]] = {}
    with lobby_bench.platform() as (redis_url, _rules, lobby):
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            consumer = start_consumer(redis_url, "bench")
            lobby_bench.run_load(lobby.url, "lobby", n, 2)  # warm-up
            wait_caught_up(client)
            pace = None
            for name in ("saturated", "paced"):
                since = int(time.time() * 1000)
                load = lobby_bench.run_load(lobby.url, "lobby", n, seconds, pace=pace)
                wait_caught_up(client)
                runs[name] = {"load": load, "lags": lags_ms(client, since)}
                pace = n / (load["per_second"] / 2)
            stop(consumer)

            total = cast(int, client.xlen(MatchLog(client).feed_key(0)))
            for key in list(client.scan_iter(match=PATTERN, count=500)):
                client.delete(key)
            client.xgroup_destroy(MatchLog(client).feed_key(0), GROUP)
            started = time.perf_counter()
            consumer = start_consumer(redis_url, "rebuild")
            wait_caught_up(client, timeout=600)
            rebuild = time.perf_counter() - started
        finally:
            if consumer is not None:
                stop(consumer)

    for name, run in runs.items():
        lags, load = run["lags"], run["load"]
        print(f"  {name:10s} {load['per_second']:6.0f} moves/s ({len(lags)} notifications): lag "
              f"p50 {percentile(lags, 0.5):5.1f} ms  p99 {percentile(lags, 0.99):6.1f} ms  "
              f"max {lags[-1]:6.1f} ms")  # fmt: skip
    print(f"  rebuild    {total} notifications from the start in {rebuild:.1f} s "
          f"({total / rebuild:.0f}/s, process start included)")  # fmt: skip
    paced = percentile(runs["paced"]["lags"], 0.5)
    print(f"  paced lag p50 {paced:.1f} ms (target {TARGET_P50_MS:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
