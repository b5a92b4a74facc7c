"""``scripts/make_reports.py``: the ready-made reports and the index the web lobby reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_script_writes_reports_and_an_index_of_them(tmp_path: Path) -> None:
    out = tmp_path / "reports"
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_reports.py"), "--out", str(out),
                           "--deals", "2", "--bots", "random", "--skill", "off",
                           "--only", "trick-of-the-dead-two-players"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert isinstance(index, list) and len(index) == 1
    entry = index[0]
    assert {"id", "title", "game", "file", "json", "variants", "deals", "seed", "findings"} <= set(entry)
    assert entry["game"] == "trick-of-the-dead" and entry["deals"] == 2
    assert entry["file"] == "trick-of-the-dead-two-players.html" and "/" not in entry["file"]
    page = (out / entry["file"]).read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and entry["title"] in page
    assert "http://" not in page and "https://" not in page
    numbers = json.loads((out / entry["json"]).read_text(encoding="utf-8"))
    assert [v["name"] for v in numbers["variants"]] == entry["variants"]
    assert numbers["variants"][0]["changed"] == {"players": 2}


def test_an_unknown_report_id_is_refused(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_reports.py"), "--out", str(tmp_path / "r"),
                           "--only", "nosuch"], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2 and "unknown report nosuch" in proc.stderr
    assert not (tmp_path / "r" / "index.json").exists()
