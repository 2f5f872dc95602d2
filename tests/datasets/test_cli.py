import hashlib
import json
import subprocess
import sys
from pathlib import Path

SISEPAI = Path(sys.executable).with_name("sisepai")


def run(*args):
    return subprocess.run([str(SISEPAI), "dataset", *args], capture_output=True, text=True, timeout=600)


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_same_seed_same_bytes_whatever_the_workers(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert run("generate", "--out", str(a), "--n", "6", "--seed", "3", "--workers", "1", "--size", "480x270",
               "--crops").returncode == 0
    assert run("generate", "--out", str(b), "--n", "6", "--seed", "3", "--workers", "2", "--size", "480x270",
               "--crops").returncode == 0
    da, db = digest(a), digest(b)
    assert da == db and len([k for k in da if k.startswith("images/")]) == 6


def test_shards_partition_the_set(tmp_path):
    full, s1, s2 = tmp_path / "full", tmp_path / "s1", tmp_path / "s2"
    run("generate", "--out", str(full), "--n", "5", "--seed", "4", "--size", "320x180", "--workers", "1")
    run("generate", "--out", str(s1), "--n", "5", "--seed", "4", "--size", "320x180", "--shard", "1/2", "--workers", "1")
    run("generate", "--out", str(s2), "--n", "5", "--seed", "4", "--size", "320x180", "--shard", "2/2", "--workers", "1")
    d1, d2, df = digest(s1), digest(s2), digest(full)
    images1 = {k for k in d1 if k.startswith("images/")}
    images2 = {k for k in d2 if k.startswith("images/")}
    assert images1 and images2 and not (images1 & images2)
    whole = {"README.md", "preview.png", "dataset.json"}  # dataset-wide files: `dataset merge` writes them
    merged = {k: v for k, v in {**d1, **d2}.items() if k not in whole}
    assert merged == {k: v for k, v in df.items() if k not in whole}


def test_dataset_layout_and_labels(tmp_path):
    out = tmp_path / "d"
    proc = run("generate", "--out", str(out), "--n", "4", "--seed", "5", "--size", "480x270", "--val", "0.5",
               "--layouts", "table,hand")
    assert proc.returncode == 0, proc.stderr
    yaml = (out / "data.yaml").read_text()
    assert "  0: GK" in yaml and "  28: J" in yaml
    for ann in out.glob("annotations/*/*.json"):
        rec = json.loads(ann.read_text())
        assert rec["layout"] in ("table", "hand")
        label = (out / "labels" / rec["split"] / (ann.stem + ".txt")).read_text().split("\n")
        label = [part for part in label if part]
        assert len(label) == sum(c["labelled"] for c in rec["cards"])
        for line in label:
            parts = line.split()
            assert 0 <= int(parts[0]) <= 28 and len(parts) == 9
            assert all(0.0 <= float(v) <= 1.0 for v in parts[1:])
    stats = json.loads(run("stats", str(out), "--json").stdout)
    assert stats["scenes"] == 4 and stats["labelled_cards"] > 0
    proc = run("preview", str(out), "--out", str(tmp_path / "sheet.png"))
    assert proc.returncode == 0 and (tmp_path / "sheet.png").stat().st_size > 1000


def test_bad_arguments_are_clear(tmp_path):
    proc = run("generate", "--out", str(tmp_path / "x"), "--n", "3", "--size", "big")
    assert proc.returncode == 2 and "1280x720" in proc.stderr
    proc = run("generate", "--out", str(tmp_path / "x"), "--n", "3", "--layouts", "pyramid")
    assert proc.returncode == 2 and "pyramid" in proc.stderr
    proc = run("stats", str(tmp_path / "nothing"))
    assert proc.returncode == 2 and "not a sisepai dataset" in proc.stderr and "Traceback" not in proc.stderr


def test_printed_off_draws_the_plain_styles_and_says_so(tmp_path):
    auto, plain = tmp_path / "auto", tmp_path / "plain"
    assert run("generate", "--out", str(auto), "--n", "3", "--seed", "1503", "--size", "320x180", "--workers", "1",
               "--val", "0").returncode == 0
    proc = run("generate", "--out", str(plain), "--n", "3", "--seed", "1503", "--size", "320x180", "--workers", "1",
               "--val", "0", "--printed", "off")
    assert proc.returncode == 0, proc.stderr
    assert json.loads((plain / "dataset.json").read_text())["printed"] == "off"
    da, dp = digest(auto), digest(plain)
    images = [k for k in da if k.startswith("images/")]
    assert len(images) == 3 and any(da[k] != dp[k] for k in images)
    # the same cards in the same places, where the printed deck kept the plain style's proportions
    # (a family or a free design sets its own)
    unfamilied = [k for k in da if k.startswith("labels/") and json.loads(
        (auto / k.replace("labels/", "annotations/").replace(".txt", ".json")).read_text())["deck"]["family"] is None]
    assert unfamilied and all(da[k] == dp[k] for k in unfamilied)


def test_an_absurd_count_is_refused_before_anything_is_made(tmp_path):
    from sisepai.engine.cli import main

    out = tmp_path / "never"
    assert main(["dataset", "generate", "--out", str(out), "--n", "99999999999999999999"]) == 2
    assert not out.exists()


def test_a_dataset_the_disk_cannot_hold_is_refused_before_anything_is_written(tmp_path, monkeypatch, capsys):
    import shutil
    from collections import namedtuple

    from sisepai.datasets import cli as dataset_cli
    from sisepai.engine.cli import main

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**12, 10**12 - 50 * 10**6, 50 * 10**6))
    out = tmp_path / "big"
    assert main(["dataset", "generate", "--out", str(out), "--n", "200", "--seed", "1", "--crops"]) == 2
    assert "needs about 0.1 GB" in capsys.readouterr().err and not out.exists()
    assert dataset_cli.estimate_bytes(200, (1280, 720), True) > 50 * 10**6 > dataset_cli.estimate_bytes(20, (1280, 720), True)


def test_a_photo_folder_is_checked_and_recorded(tmp_path):
    import cv2
    import numpy as np

    photos = tmp_path / "photos"
    (photos / "wood").mkdir(parents=True)
    cv2.imwrite(str(photos / "wood" / "table.jpg"), np.full((200, 300, 3), 120, np.uint8))
    proc = run("generate", "--out", str(tmp_path / "d"), "--n", "2", "--size", "320x180", "--workers", "1",
               "--photos", str(photos))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "d" / "dataset.json").read_text())["photos"] == ["wood/table.jpg"]
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run("generate", "--out", str(tmp_path / "e"), "--n", "2", "--photos", str(empty))
    assert proc.returncode == 2 and "no .jpg" in proc.stderr and "Traceback" not in proc.stderr


def test_scripts_are_checked_and_recorded(tmp_path):
    proc = run("generate", "--out", str(tmp_path / "d"), "--n", "2", "--size", "320x180", "--workers", "1",
               "--printed", "on", "--scripts", "nib,flared", "--script-share", "0.9")
    assert proc.returncode == 0, proc.stderr
    meta = json.loads((tmp_path / "d" / "dataset.json").read_text())
    assert meta["scripts"] == ["nib", "flared"] and meta["script_share"] == 0.9
    for bad, says in ((["--scripts", "cursive"], "unknown script"), (["--script-share", "1.5"], "between 0 and 1")):
        proc = run("generate", "--out", str(tmp_path / "e"), "--n", "2", *bad)
        assert proc.returncode == 2 and says in proc.stderr and "Traceback" not in proc.stderr
