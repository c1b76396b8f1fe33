"""The ladder: each level against those below it, in the 2-player versions of eight games,
every row played until its result is settled or its cap is reached.

A row is two strategies in one game, A above B. Its matches are paired deals as in a
tournament (each deal played from both seats, so the luck of the deal cancels out), run
over every core, a match at a time, the rows taking turns. A row is looked at after each
lot of ``LOT`` matches: it is settled when the Wilson interval of A's score at
``Z_LOOK`` (99%) excludes one half, and then stops. A row looked at up to twelve times
(the cap of 192 matches) that way is wrong less than 5% of the time when A and B are in
truth equal, as one 95% interval would be on a fixed number of matches (Pocock's bound
for twelve looks is z = 2.59); the table prints the plain 95% interval beside the verdict.

The levels' budgets are iterations (``levels``), so a row's result does not depend on the
machine's load; A's time per decision is printed apart. ``--write docs/bots.md`` puts
the table, with the date, the commit and the load, between the file's ladder markers.

Usage: python -m shared.bots.ladder [--minutes 60] [--processes N] [--write docs/bots.md]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.pool
import os
import platform
import subprocess
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .tournament import Outcome, _play_job, jobs, summary, wilson

#: The 2-player games of the ladder, by (game, variant).
GAMES = [
    ("brisca", "base"), ("brisca", "tute"), ("truco", "base"), ("escoba", "base"),
    ("chinchon", "base"), ("exploradores", "base"), ("raj", "dos-jugadores"), ("e-card", "base"),
]  # fmt: skip
#: The pairs of each game, A above B. Brisca's ``easy`` is its hand-written greedy.
PAIRS = [("hard", "random"), ("hard", "easy"), ("medium", "easy"), ("hard", "medium")]
#: Rows left out: E-Card against uniformly random play is a fair coin for every strategy,
#: computed exactly by tests/test_bots_heuristics.py (docs/bots.md says why).
PROVEN_EVEN = {("e-card", "random")}
LOT = 16  # matches between two looks at a row: eight deals, each from both seats
CAP = 192  # twelve looks
Z_LOOK = 2.576  # the interval a look settles a row with: 99%
START, END = "<!-- ladder:start -->", "<!-- ladder:end -->"


@dataclass
class Row:
    """One pair of strategies in one game, and the matches it has played so far."""

    game: str
    variant: str
    a: str
    b: str
    outcomes: list[Outcome] = field(default_factory=list)
    submitted: int = 0
    verdict: str = ""  # "A" or "B" once settled; "cap" or "time" when it stopped unsettled

    @property
    def label(self) -> str:
        return f"{self.game} / {self.variant} · {self.a} vs {self.b}"


def default_rows() -> list[Row]:
    return [
        Row(game, variant, a, b)
        for game, variant in GAMES
        for a, b in PAIRS
        if (game, b) not in PROVEN_EVEN
    ]


def verdict(score: float, matches: int) -> str:
    """'A' or 'B' when the look's interval excludes one half on that side, else ''."""
    low, high = wilson(score, matches, Z_LOOK)
    return "A" if low > 0.5 else "B" if high < 0.5 else ""


def _look(row: Row, lot: int, cap: int) -> None:
    """After a whole lot: settle the row, or stop it at its cap."""
    played = len(row.outcomes)
    if row.verdict or played != row.submitted or played % lot:
        return
    row.verdict = verdict(sum(o.points for o in row.outcomes), played)
    if not row.verdict and played >= cap:
        row.verdict = "cap"


def _next(rows: list[Row], lot: int) -> Row | None:
    """The open row with the fewest matches whose current lot is not all submitted."""
    waiting = [
        r
        for r in rows
        if not r.verdict and r.submitted < len(r.outcomes) - len(r.outcomes) % lot + lot
    ]
    return min(waiting, key=lambda r: r.submitted, default=None)


def run(
    rows: list[Row],
    lot: int = LOT,
    cap: int = CAP,
    processes: int | None = None,
    minutes: float | None = None,
    progress: bool = False,
) -> list[Row]:
    """Play every row until it settles, reaches ``cap`` or ``minutes`` have passed (then the
    matches under way finish and the rows still open say so)."""
    processes = processes or os.cpu_count() or 1
    deadline = time.monotonic() + minutes * 60 if minutes else None
    in_flight: list[tuple[multiprocessing.pool.AsyncResult, Row]] = []
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        while True:
            late = deadline is not None and time.monotonic() > deadline
            while not late and len(in_flight) < 2 * processes and (row := _next(rows, lot)):
                job = jobs(row.game, row.variant, 2, row.a, row.b, row.submitted + 1, "ladder")[-1]
                in_flight.append((pool.apply_async(_play_job, (job,)), row))
                row.submitted += 1
            if not in_flight:
                break
            done = [(result, row) for result, row in in_flight if result.ready()]
            for result, row in done:
                in_flight.remove((result, row))
                row.outcomes.append(result.get())
                _look(row, lot, cap)
                if progress and row.verdict:
                    print(f"{row.label}: {row.verdict} after {len(row.outcomes)}", flush=True)
            if not done:
                time.sleep(0.2)
    for row in rows:
        row.verdict = row.verdict or "time"
    return rows


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(row: Row) -> dict:
    """A row's figures: a tournament's summary, the verdict, A's time per decision."""
    decisions = [ms for o in row.outcomes for ms in o.a_ms]
    return {
        "game": row.game, "variant": row.variant, "a": row.a, "b": row.b, **summary(row.outcomes),
        "verdict": row.verdict, "a_ms_p50": round(_percentile(decisions, 0.5), 1),
        "a_ms_p99": round(_percentile(decisions, 0.99), 1),
    }  # fmt: skip


SAYS = {"A": "A is stronger", "B": "B is stronger", "cap": "not settled at the cap", "time": "not settled: time ran out"}  # fmt: skip


def table(
    rows: list[Row],
    started: datetime,
    loads: tuple[str, str],
    minutes: float,
    lot: int = LOT,
    cap: int = CAP,
) -> str:
    """The markdown of a run: what it ran on, then a line per row."""
    commit = _git("rev-parse", "--short", "HEAD")
    dirty = (
        " (with uncommitted changes)"
        if _git("status", "--porcelain", "--untracked-files=no")
        else ""
    )
    lines = [
        f"Run of {started:%Y-%m-%d %H:%M} UTC, {minutes:.0f} minutes, commit `{commit}`{dirty}, "
        f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), load average "
        f"(1 min) {loads[0]} at the start and {loads[1]} at the end; lots of {lot}, cap {cap}.",
        "",
        "| game / variant | A vs B | matches | A won / drew / lost | A's score | 95% Wilson "
        "| verdict | A's ms per decision p50 / p99 | s per match |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        r = report(row)
        if not r["matches"]:
            continue
        low, high = r["wilson95"]
        lines.append(
            f"| {r['game']} / {r['variant']} | {r['a']} vs {r['b']} | {r['matches']} "
            f"| {r['wins']} / {r['draws']} / {r['losses']} | {r['score']:.2f} "
            f"| {low:.2f}–{high:.2f} | {SAYS[r['verdict']]} | {r['a_ms_p50']:.0f} / "
            f"{r['a_ms_p99']:.0f} | {r['seconds_per_match']} |"
        )
    return "\n".join(lines)


def write(path: Path, text: str) -> None:
    """Replace what lies between the file's ladder markers with ``text``."""
    doc = path.read_text()
    head, _, rest = doc.partition(START)
    _, found, tail = rest.partition(END)
    if not found:
        raise ValueError(f"{path} has no {START} … {END} markers")
    path.write_text(f"{head}{START}\n{text}\n{END}{tail}")


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=None, help="stop starting matches then")
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--write", type=Path, default=None, help="the doc to put the table in")
    args = parser.parse_args()
    started, load = datetime.now(UTC), _load()
    clock = time.monotonic()
    rows = run(default_rows(), processes=args.processes, minutes=args.minutes, progress=True)
    for row in rows:
        print(json.dumps(report(row)), flush=True)
    text = table(rows, started, (load, _load()), (time.monotonic() - clock) / 60)
    print(text)
    if args.write:
        write(args.write, text)


if __name__ == "__main__":
    main()
