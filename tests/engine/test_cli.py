import json
import subprocess
import sys
from pathlib import Path

import pytest

from sisepai.engine.cli import main

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
READY = WIN.rsplit(" ", 1)[0]
SISEPAI = Path(sys.executable).with_name("sisepai")


def run(args, stdin=None):
    return subprocess.run([str(SISEPAI), *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_score_human_output_has_characters(capsys):
    assert main(["score", *WIN.split()]) == 0
    out = capsys.readouterr().out
    assert "11 points" in out and "G將 G士 G象" in out and "checksum ok" in out


def test_score_json(capsys):
    assert main(["score", WIN, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winning"] is True and data["points"] == 11
    assert sorted(c for m in data["melds"] for c in m) == sorted(WIN.split())


def test_score_tusac_and_four_card_option(capsys):
    main(["score", WIN, "--json", "--rules", "tusac"])
    assert json.loads(capsys.readouterr().out)["points"] == 13
    main(["score", WIN, "--json", "--four-card-points", "4"])
    assert json.loads(capsys.readouterr().out)["points"] == 13


def test_score_not_winning(capsys):
    assert main(["score", READY]) == 0
    out = capsys.readouterr().out
    assert "not a win" in out and "distance to win: 1" in out


@pytest.mark.parametrize("command", ["score", "advise"])
def test_an_empty_hand_is_an_error_not_an_answer(capsys, command):
    assert main([command, ""]) == 2
    err = capsys.readouterr().err
    assert "give the hand's cards" in err and "Traceback" not in err


def test_batch_keeps_order_and_reports_bad_lines():
    lines = [WIN, "GK XX", READY, "J J J J J J", WIN.lower(), "GK GK GK GK GK", ""]
    proc = run(["score", "--json", "-"], stdin="\n".join(lines) + "\n")
    assert proc.returncode == 1
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["winning"] and out[0]["points"] == 11
    assert "'XX'" in out[1]["error"]
    assert out[2] == {"cards": READY.split(), "winning": False, "points": None, "melds": None}
    assert "6 jokers" in out[3]["error"]
    assert out[4]["points"] == 11
    assert "5 copies of GK" in out[5]["error"]
    assert "error" in out[6]
    assert "Traceback" not in proc.stderr


def test_batch_with_exposed_melds():
    proc = run(["score", "--json", "-"], stdin=WIN.replace("WC WC WC ", "") + " | WC WC WC\n")
    data = json.loads(proc.stdout)
    assert data["winning"] and data["points"] == 11 and data["melds"][0] == ["WC", "WC", "WC"]


@pytest.mark.parametrize("args,needle", [
    (["score", "GK", "XK"], "unknown card 'XK'"),
    (["score", "J J J J J J"], "6 jokers"),
    (["score", "GK GK GK GK GK"], "5 copies of GK"),
    (["score", "GK", "--rules", "nope"], "unknown rules preset"),
    (["advise", "GK GA", "--shown", "Q1"], "unknown card 'Q1'"),
    (["score", "GK", "--exposed", "GA GE"], "is not a meld"),
])
def test_bad_input_is_one_line_and_nonzero(args, needle):
    proc = run(args)
    assert proc.returncode != 0
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_advise_text_and_json(capsys):
    assert main(["advise", READY, "--shown", "YK"]) == 0
    out = capsys.readouterr().out
    assert "zhimo" in out and "waits:" in out
    assert main(["advise", READY, "--shown", "WH", "--relation", "previous", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distance"] == 1 and data["claims"] == []


def test_help_teaches():
    proc = run(["score", "--help"])
    assert proc.returncode == 0 and "examples:" in proc.stdout and "--rules" in proc.stdout
    assert "card notation" in run(["--help"]).stdout


def test_demo_runs(capsys):
    assert main(["demo"]) == 0
    assert "11 points" in capsys.readouterr().out


def test_engine_import_is_light():
    code = ("import sys, sisepai.engine; bad = [m for m in ('numpy', 'cv2', 'torch', 'ultralytics') "
            "if m in sys.modules]; print(bad)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout.strip() == "[]"


def test_simulate_json_and_replay(tmp_path):
    proc = run(["simulate", "--players", "4", "--games", "30", "--bots", "greedy,random,random,random", "--seed", "1",
                "--json", "--log", str(tmp_path)])
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)
    assert stats["games"] == 30 and len(stats["win_rate"]) == 4
    assert 0 <= stats["draw_rate"] <= 1 and stats["turns_per_game"] > 0
    log = sorted(tmp_path.glob("*.json"))[0]
    proc = run(["replay", str(log)])
    assert proc.returncode == 0 and "replay checked" in proc.stdout
    events = json.loads(log.read_text())
    events[3]["move"] = "discard GK"
    log.write_text(json.dumps(events))
    proc = run(["replay", str(log)])
    assert proc.returncode == 2 and "event 3" in proc.stderr and "Traceback" not in proc.stderr


def test_simulate_bad_bots():
    proc = run(["simulate", "--bots", "greedy,smart", "--players", "2"])
    assert proc.returncode == 2 and "unknown bot 'smart'" in proc.stderr


def test_the_engine_names_no_higher_layer():
    # subcommands of the higher layers are plugins (entry points in pyproject.toml), so the engine
    # package depends on nothing above it, not even by a module name in a string
    import re
    from pathlib import Path

    import sisepai.engine as engine

    root = Path(engine.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"sisepai\.(vision|datasets|models|service)", text), path


def test_the_engines_own_commands_load_no_plugin():
    """`sisepai score` starts in the time Python and the engine take: no installed command's
    module (vision, the generator, training, the service, the ledger) is imported."""
    import subprocess
    import sys

    code = ("import sys; from sisepai.engine.cli import main; main(['score', 'GK', 'GA', 'GE']); "
            "print(sorted(m for m in sys.modules if m.startswith('sisepai.') and not m.startswith('sisepai.engine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    assert out.strip().splitlines()[-1] == "[]"
