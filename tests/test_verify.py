"""The offline verifier (``python -m shared.verify``): an exported match checks with the
engine alone, and a tampered one is refused at the first entry that disagrees."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from shared.bots import catalog_entry
from shared.engine import get_game
from shared.verify import export_document, main, verify_export
from tests.corpus.logs import log_of

CORPUS = sorted((Path(__file__).resolve().parent / "corpus").glob("*.json.gz"))


def exported(path: Path) -> dict:
    doc = json.loads(gzip.decompress(path.read_bytes()))
    setup = {"rules_version": doc["rules_version"]} if "rules_version" in doc else {}
    entries = log_of(doc, **setup)
    return export_document("corpus", entries, catalog_entry(get_game(doc["game"])))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name.removesuffix(".json.gz"))
def test_every_corpus_match_exported_verifies_offline(path: Path):
    doc = exported(path)
    report = verify_export(doc)
    assert report["ok"], report["divergences"]
    assert report["checked"] == len(doc["entries"]) - 1  # every entry but the creation


def test_the_verifier_needs_no_service_nor_redis(tmp_path: Path):
    """Run as a person would, in a fresh interpreter: nothing of the services is imported."""
    file = tmp_path / "match.json"
    file.write_text(json.dumps(exported(CORPUS[0])))
    probe = (
        "import runpy, sys; sys.argv = ['verify', sys.argv[1]]\n"
        "try:\n    runpy.run_module('shared.verify', run_name='__main__')\n"
        "except SystemExit as end:\n"
        "    loaded = [m for m in ('redis', 'flask', 'services', 'rq') if m in sys.modules]\n"
        "    print('loaded', loaded, 'exit', end.code)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(file)], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("ok: ") and out.strip().endswith("loaded [] exit 0"), out


def refused(doc: dict, capsys: pytest.CaptureFixture, tmp_path: Path) -> tuple[int, str]:
    """The offline verifier's exit code and first line on ``doc``."""
    file = tmp_path / "tampered.json"
    file.write_text(json.dumps(doc))
    code = main([str(file)])
    return code, capsys.readouterr().out.splitlines()[0]


BRISCA = next(p for p in CORPUS if p.name == "brisca.base.2p.json.gz")


def test_a_changed_card_is_refused_at_its_entry(capsys, tmp_path):
    doc = exported(BRISCA)
    entry = next(e for e in doc["entries"] if e["kind"] == "action" and e["version"] > 5)
    played = next(ev for ev in entry["events"] if "card" in ev)
    played["card"] = "1O" if played["card"] != "1O" else "2O"
    assert refused(doc, capsys, tmp_path) == (
        1, f"REFUSED: the first entry that disagrees is version {entry['version']}",
    )  # fmt: skip
    assert verify_export(doc)["divergences"][0]["check"] == "events"


def test_a_changed_seed_is_refused(capsys, tmp_path):
    """The revealed server seed, or the document's own account of the seeds."""
    doc = exported(BRISCA)
    doc["entries"][-1]["seed"] = "0" * 64
    code, line = refused(doc, capsys, tmp_path)
    assert (code, line) == (1, "REFUSED: the first entry that disagrees is version 2")
    assert {d["check"] for d in verify_export(doc)["divergences"]} == {"seed"}
    doc = exported(BRISCA)
    doc["seeds"]["server"] = "0" * 64
    [divergence] = verify_export(doc)["divergences"]
    assert divergence["check"] == "seed" and divergence["version"] == doc["entries"][-1]["version"]


def test_reordered_entries_are_refused_at_the_first_out_of_place(capsys, tmp_path):
    doc = exported(BRISCA)
    entries = doc["entries"]
    entries[6], entries[7] = entries[7], entries[6]
    assert refused(doc, capsys, tmp_path) == (
        1, "REFUSED: the first entry that disagrees is version 7",
    )  # fmt: skip
    assert verify_export(doc)["divergences"][0]["check"] == "sequence"


def test_a_file_that_is_no_export_is_refused_as_such(capsys, tmp_path):
    file = tmp_path / "other.json"
    file.write_text(json.dumps({"entries": []}))
    assert main([str(file)]) == 2
    assert "not an exported match" in capsys.readouterr().err
