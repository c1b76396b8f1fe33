"""The ladder: when a row is settled, the rows' turns, and a smoke run that writes its table."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared.bots.ladder import END, START, Row, default_rows, run, table, verdict, write


def test_a_row_is_settled_only_when_the_looks_interval_excludes_one_half():
    assert verdict(14, 16) == "A"  # 0.875: the 99% interval is 0.56-0.97
    assert verdict(11, 16) == ""  # 0.69: 0.37-0.89 still holds one half
    assert verdict(2, 16) == "B"
    assert verdict(96, 160) == ""  # 0.60 over 160: one 95% interval would already say A


def test_every_game_plays_each_level_against_those_below_it_but_a_proven_coin():
    rows = {(r.game, r.variant, r.a, r.b) for r in default_rows()}
    assert len(rows) == 8 * 4 - 1
    assert ("brisca", "tute", "medium", "easy") in rows
    assert ("e-card", "base", "hard", "random") not in rows


def test_smoke_ladder_plays_paired_lots_and_writes_its_table(tmp_path):
    rows = run([Row("raj", "dos-jugadores", "smoke", "random")], lot=4, cap=8, processes=2)
    [row] = rows
    played = len(row.outcomes)
    assert played in (4, 8) and played == row.submitted
    assert row.verdict in ("A", "B") if played == 4 else row.verdict in ("A", "B", "cap")
    seeds = sorted((o.seed, o.a_seats) for o in row.outcomes)
    assert seeds[:2] == [("ladder:0", (0,)), ("ladder:0", (1,))]  # one deal from both seats
    doc = tmp_path / "bots.md"
    doc.write_text(f"# Bots\n{START}\nold\n{END}\nafter\n")
    write(doc, table(rows, datetime.now(UTC), ("0.1", "0.2"), 0.1, lot=4, cap=8))
    text = doc.read_text()
    assert "old" not in text and text.endswith(f"{END}\nafter\n")
    assert f"| raj / dos-jugadores | smoke vs random | {played} |" in text
    assert "lots of 4, cap 8" in text


def test_a_doc_without_markers_is_refused(tmp_path):
    doc = tmp_path / "bots.md"
    doc.write_text("# Bots\n")
    with pytest.raises(ValueError, match="markers"):
        write(doc, "table")
