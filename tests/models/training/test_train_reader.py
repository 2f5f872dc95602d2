"""Reader training on a few generated scenes: weights that load, the arch recorded, and resuming."""

from pathlib import Path

import numpy as np
import pytest

from sisepai.datasets.export.writer import GenerateOptions, generate_one, prepare_folders

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def tiny_crops(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("crops")
    prepare_folders(out)
    opts = GenerateOptions(seed=4, size=(640, 360), layouts=("table",), val=0.25, crops=True)
    for i in range(4):
        generate_one(out, i, opts)
    return out


def test_reader_trains_saves_and_resumes(tiny_crops, tmp_path):
    from sisepai.models.training.train_reader import load_crops, train_reader
    from sisepai.vision.recognition.reader import Reader
    from sisepai.vision.recognition.reader_net import READER_CLASSES

    x, y = load_crops([tiny_crops], "train")
    assert len(x) > 20 and x.shape[1:] == (48, 48, 3) and set(y) <= set(range(len(READER_CLASSES)))
    out, ckpt = tmp_path / "reader.pt", tmp_path / "ckpt.pt"

    class Interrupted(Exception):
        pass

    def stop_in_epoch_two(message: str) -> None:
        if message.startswith("reader epoch 2/"):
            raise Interrupted

    with pytest.raises(Interrupted):
        train_reader([tiny_crops], out, epochs=2, batch=16, samples_per_epoch=64, checkpoint=ckpt, arch="v1",
                     progress=stop_in_epoch_two)
    assert ckpt.exists() and not out.exists()
    # the same command again resumes after the first epoch, rather than starting again
    messages = []
    result = train_reader([tiny_crops], out, epochs=2, batch=16, samples_per_epoch=64, checkpoint=ckpt,
                          arch="v1", progress=messages.append)
    assert any("resuming after epoch 1" in m for m in messages)
    assert [h["epoch"] for h in result["history"]] == [1, 2]
    with pytest.raises(ValueError, match="3 epochs"):
        train_reader([tiny_crops], out, epochs=3, batch=16, samples_per_epoch=64, checkpoint=ckpt, arch="v1",
                     progress=lambda _: None)
    with pytest.raises(ValueError, match="colour augmentation"):  # another augmentation is another run
        train_reader([tiny_crops], out, epochs=2, batch=16, samples_per_epoch=64, checkpoint=ckpt, arch="v1",
                     progress=lambda _: None, colour=(5.0, 0.3, 0.1))
    reader = Reader.load(out)
    probs = reader.read([x[0], np.zeros((30, 30, 3), np.uint8)])
    assert probs.shape == (2, len(READER_CLASSES)) and np.allclose(probs.sum(1), 1, atol=1e-4)
    saved = torch.load(out, weights_only=False)
    assert saved["arch"] == "v1" and saved["colour"] == [12.0, 0.3, 0.16]


def test_unknown_arch_is_refused():
    from sisepai.vision.recognition.reader_net import build_reader

    with pytest.raises(ValueError, match="unknown reader arch"):
        build_reader(arch="v9")


def test_missing_init_weights_are_a_clear_error(tmp_path):
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("sisepai")
    for flag in ("--detector-init", "--reader-init"):
        proc = subprocess.run([str(exe), "train", "--data", str(tmp_path), flag, str(tmp_path / "nope.pt")],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2 and "no such weights file" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a CUDA GPU")
def test_a_gpu_asked_for_where_there_is_none_is_a_clear_error(tmp_path):
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("sisepai")
    proc = subprocess.run([str(exe), "train", "--data", str(tmp_path), "--device", "0"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "no such CUDA GPU" in proc.stderr and "Traceback" not in proc.stderr


def test_a_time_budget_plans_the_epochs_and_a_resume_keeps_the_plan(tiny_crops, tmp_path):
    from sisepai.models.training.train_reader import train_reader

    out, ckpt = tmp_path / "reader.pt", tmp_path / "ckpt.pt"
    messages: list[str] = []
    # a budget of a fraction of a second fits no full epoch: at least one is run
    result = train_reader([tiny_crops], out, epochs=50, batch=16, samples_per_epoch=32, checkpoint=ckpt,
                          arch="v1", minutes=0.001, progress=messages.append)
    plan = next(m for m in messages if "fit in" in m)
    planned = int(plan.split(" so ")[1].split()[0])
    assert planned >= 1 and len(result["history"]) == planned
    assert torch.load(ckpt, weights_only=False)["epochs"] == planned
    # resuming a finished timed run keeps its plan instead of timing again
    again: list[str] = []
    train_reader([tiny_crops], out, epochs=50, batch=16, samples_per_epoch=32, checkpoint=ckpt, arch="v1",
                 minutes=5, progress=again.append)
    assert not any("fit in" in m for m in again) and any("resuming" in m for m in again)


def test_train_checks_its_arguments_before_any_long_work(tmp_path):
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("sisepai")
    data = tmp_path / "data"
    proc = subprocess.run([str(exe), "dataset", "generate", "--out", str(data), "--n", "2", "--size", "320x180",
                           "--crops", "--workers", "1"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([str(exe), "train", "--data", str(data)], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 2 and "evaluate needs --test" in proc.stderr
    # refused before training, not after: no run folder was made
    assert not (tmp_path / "runs").exists() and not (Path(sys.executable).parent / "runs").exists()


def test_install_replaces_the_weights_the_runtime_loads():
    from sisepai.models.cli import MODELS, WEIGHTS
    from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DETECTOR
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as READER

    assert WEIGHTS / "detector.pt" == DETECTOR and WEIGHTS / "reader.pt" == READER and DETECTOR.is_file()
    assert (MODELS / "MODEL_CARD.md").is_file()  # evaluate's metrics.json lands beside the model card


def test_the_lite0_reader_starts_from_imagenet_and_a_fine_tune_keeps_its_arch(tiny_crops, tmp_path):
    from sisepai.engine.errors import SisepaiError
    from sisepai.models.training.train_reader import train_reader
    from sisepai.vision.recognition.reader import Reader

    said = []
    train_reader([tiny_crops], tmp_path / "lite.pt", epochs=1, batch=16, samples_per_epoch=32, arch="lite0",
                 progress=said.append)
    assert any("ImageNet weights" in s for s in said)
    assert torch.load(tmp_path / "lite.pt", weights_only=False)["arch"] == "lite0"
    assert Reader.load(tmp_path / "lite.pt").read([np.zeros((48, 48, 3), np.uint8)]).shape == (1, 30)
    # a fine-tune from those weights is a lite0 run without being told; another arch is refused in words
    train_reader([tiny_crops], tmp_path / "again.pt", epochs=1, batch=16, samples_per_epoch=32,
                 init=tmp_path / "lite.pt", progress=said.append)
    assert torch.load(tmp_path / "again.pt", weights_only=False)["arch"] == "lite0"
    with pytest.raises(SisepaiError, match="holds a lite0 reader, not v2"):
        train_reader([tiny_crops], tmp_path / "no.pt", epochs=1, batch=16, samples_per_epoch=32,
                     init=tmp_path / "lite.pt", arch="v2")
