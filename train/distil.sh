#!/usr/bin/env bash
# Distils the demo's tools into a model: oracle transcripts rendered by the runtime (Node),
# training (PyTorch; a GPU for the full model), a parity check of the exported GGUF against
# PyTorch, a Q8_0 export, and an evaluation on held-out phrasings.
#
#   DEVICE=cuda ./train/distil.sh                          # the full model (train/out/narrowgauge-weather.gguf)
#   CONFIG=toy DEVICE=cpu STEPS=20 RUNS=40 HELDOUT=10 ./train/distil.sh   # the whole pipeline in a few minutes, on a CPU
#
# STAGE=data|train|export runs one stage (data where Node is, train where the GPU is);
# RESUME=1 continues training from the last checkpoint (written every 250 steps).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-train/out}
config=${CONFIG:-full}
device=${DEVICE:-cuda}
steps=${STEPS:-6000}
runs=${RUNS:-8000}
heldout=${HELDOUT:-300}
python=${PYTHON:-python3}
stage=${STAGE:-all}
model=$out/narrowgauge-weather-$config

if [[ $stage == all || $stage == data ]]; then
  npm run -s train:data -- --runs "$runs" --seed 1 --out "$out/train.jsonl"
  npm run -s train:data -- --runs "$heldout" --seed 2 --split heldout --out "$out/heldout.jsonl"
fi
if [[ $stage == all || $stage == train ]]; then
  "$python" train/trainer/train.py --data "$out/train.jsonl" --heldout "$out/heldout.jsonl" --config "$config" \
    --device "$device" --steps "$steps" --batch 32 --lr 1e-3 --checkpoint-every 250 --out "$out/$config" ${RESUME:+--resume}
fi
if [[ $stage == all || $stage == export ]]; then
  "$python" train/trainer/parity.py --weights "$out/$config" --data "$out/heldout.jsonl" --out "$out/parity.json"
  npm run -s train:export -- "$out/$config" --type f32 --name "narrowgauge weather (distilled, $config)" --out "$model-f32.gguf"
  npm run -s train:parity -- --parity "$out/parity.json" --model "$model-f32.gguf"
  npm run -s train:export -- "$out/$config" --type q8_0 --name "narrowgauge weather (distilled, $config)" --out "$model.gguf"
  npm run -s train:eval -- --model "$model.gguf" --runs 40
fi
