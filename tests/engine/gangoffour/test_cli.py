import json
import subprocess
import sys
from pathlib import Path

SISEPAI = Path(sys.executable).with_name("sisepai")


def run(*args):
    return subprocess.run([str(SISEPAI), "gof", *args], capture_output=True, text=True, timeout=120)


def test_beats_json_contract():
    out = json.loads(run("beats", "r5 g5", "y5 y5", "--json").stdout)
    assert out == {"beats": True, "play": "pair", "previous": "pair"}
    out = json.loads(run("beats", "g3", "y5 y5", "--json").stdout)
    assert out == {"beats": False, "play": "single", "previous": "pair"}


def test_score_json_contract():
    assert json.loads(run("score", "0", "3", "8", "16", "--json").stdout) == {"scores": [0, 3, 16, 80]}


def test_legal_and_advise():
    out = json.loads(run("legal", "g2 y2 r7 vp", "--on", "r5", "--json").stdout)
    assert [p["cards"] for p in out["plays"]] == [["r7"], ["vp"]] and out["can_pass"]
    out = json.loads(run("advise", "g2 y2 r7 vp", "--on", "r5", "--json").stdout)
    assert out["play"] == ["r7"] and out["reason"]


def test_bad_card_names_it_and_fails():
    proc = run("beats", "x5", "r5")
    assert proc.returncode != 0 and "'x5'" in proc.stderr and "Traceback" not in proc.stderr
    proc = run("legal", "g1 g1 g1")
    assert proc.returncode != 0 and "3 copies of g1" in proc.stderr


def test_simulate_and_replay(tmp_path):
    out = json.loads(run("simulate", "--games", "3", "--seed", "1", "--json", "--log", str(tmp_path)).stdout)
    assert out["games"] == 3 and len(out["win_rate"]) == 4
    logs = sorted(tmp_path.glob("*.json"))
    assert len(logs) == 3
    proc = run("replay", str(logs[0]))
    assert proc.returncode == 0 and "replay checked" in proc.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    proc = run("replay", str(bad))
    assert proc.returncode == 2 and "not a JSON event log" in proc.stderr
