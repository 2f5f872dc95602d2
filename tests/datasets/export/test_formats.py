"""Dataset formats for other tools: COCO, a Hugging Face imagefolder, the card, and merged shards."""

import filecmp
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SISEPAI = Path(sys.executable).with_name("sisepai")
ARGS = ["--n", "8", "--seed", "4", "--size", "320x180", "--val", "0.3", "--format", "yolo-obb,coco,hf"]


def generate(out: Path, *extra: str) -> None:
    proc = subprocess.run([str(SISEPAI), "dataset", "generate", "--out", str(out), *ARGS, *extra],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ds") / "whole"
    generate(out, "--workers", "2")
    return out


def test_pycocotools_loads_the_coco_files_and_they_count_what_the_yolo_labels_count(dataset):
    from pycocotools.coco import COCO

    total = 0
    for split in ("train", "val"):
        coco = COCO(str(dataset / "annotations" / f"instances_{split}.json"))
        labels = sorted((dataset / "labels" / split).glob("*.txt"))
        lines = [line.split() for p in labels for line in p.read_text().splitlines() if line.strip()]
        assert len(coco.getAnnIds()) == len(lines) and len(coco.getImgIds()) == len(labels)
        yolo_classes = sorted(int(parts[0]) for parts in lines)
        coco_classes = sorted(a["category_id"] - 1 for a in coco.loadAnns(coco.getAnnIds()))
        assert yolo_classes == coco_classes
        for ann in coco.loadAnns(coco.getAnnIds()):
            x, y, w, h = ann["bbox"]
            assert w > 0 and h > 0 and len(ann["segmentation"][0]) == 8 and "visible" in ann["sisepai"]
        total += len(lines)
    assert total > 20


def test_hugging_face_datasets_loads_the_imagefolder(dataset, tmp_path):
    code = ("import datasets, json\n"
            f"d = datasets.load_dataset('imagefolder', data_dir={str(dataset / 'images')!r})\n"
            "print(json.dumps({k: [len(v), sum(len(r['cards']['card']) for r in v)] for k, v in d.items()}))")
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env=env)  # away from the repository's own datasets/ folder
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = json.loads(proc.stdout.strip().splitlines()[-1])
    coco = {s: json.loads((dataset / "annotations" / f"instances_{s}.json").read_text()) for s in ("train", "val")}
    assert rows["train"] == [len(coco["train"]["images"]), len(coco["train"]["annotations"])]
    assert rows["validation"] == [len(coco["val"]["images"]), len(coco["val"]["annotations"])]


def test_the_dataset_card_says_what_made_it(dataset):
    card = (dataset / "README.md").read_text()
    assert "seed 4" in card and "--n 8 --seed 4" in card and "generator" in card
    assert "Known biases" in card and "| GK |" in card and "licence" in card
    assert (dataset / "preview.png").stat().st_size > 1000


def test_three_merged_shards_are_the_single_machine_bytes(dataset, tmp_path):
    shards = []
    for k in (1, 2, 3):
        generate(tmp_path / f"part{k}", "--shard", f"{k}/3", "--workers", "1")
        shards.append(str(tmp_path / f"part{k}"))
    proc = subprocess.run([str(SISEPAI), "dataset", "merge", str(tmp_path / "merged"), *shards],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr

    def files(root: Path) -> list[str]:
        return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())

    assert files(dataset) == files(tmp_path / "merged")
    for name in files(dataset):
        assert filecmp.cmp(dataset / name, tmp_path / "merged" / name, shallow=False), name
    missing = subprocess.run([str(SISEPAI), "dataset", "merge", str(tmp_path / "partial"), *shards[:2]],
                             capture_output=True, text=True, timeout=300)
    assert missing.returncode != 0 and "in no shard" in missing.stderr and "Traceback" not in missing.stderr


def test_an_unknown_format_is_a_one_line_error(tmp_path):
    proc = subprocess.run([str(SISEPAI), "dataset", "generate", "--out", str(tmp_path / "x"), "--n", "1",
                           "--format", "coco,voc"], capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "voc" in proc.stderr and "Traceback" not in proc.stderr
