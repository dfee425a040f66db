"""Trains a distilled model on the runtime's own transcripts (npm run train:data).

  python3 train/trainer/train.py --data train/out/train.jsonl --config full \
      --device cuda --steps 6000 --out train/out/full

Each generation the runtime asked for (its exact prompt token ids, then the
oracle's completion ids) is one sequence; the loss is on the completion only.
Every --checkpoint-every steps, and at the end, the weights are written as
the exporter reads them (model.json, model.bin) and the optimiser state for
--resume, so a run cut short keeps what it learned.
"""
import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model import CONFIGS, Llama, load_weights, save_weights  # noqa: E402

VOCAB = 425  # the built-in tiny model's vocabulary, shared by every distilled model


def read_sequences(path, max_length):
    sequences = []
    with open(path) as lines:
        for line in lines:
            for generation in json.loads(line)["generations"]:
                tokens = generation["prompt"] + generation["completion"]
                weights = [0] * len(generation["prompt"]) + [1] * len(generation["completion"])
                sequences.append((tokens[-max_length:], weights[-max_length:]))
    return sequences


def batch_of(sequences, device):
    length = max(len(tokens) for tokens, _ in sequences)
    tokens = torch.zeros((len(sequences), length), dtype=torch.long)
    weights = torch.zeros((len(sequences), length))
    for row, (ids, mask) in enumerate(sequences):
        tokens[row, : len(ids)] = torch.tensor(ids)
        weights[row, : len(mask)] = torch.tensor(mask, dtype=torch.float32)
    return tokens.to(device), weights.to(device)


def loss_and_accuracy(model, tokens, weights):
    logits = model(tokens[:, :-1])
    targets, mask = tokens[:, 1:], weights[:, 1:]
    losses = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="none").view_as(mask)
    correct = (logits.argmax(-1) == targets).float()
    total = mask.sum().clamp(min=1)
    return (losses * mask).sum() / total, (correct * mask).sum() / total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--heldout", help="JSONL of held-out runs: completion-token accuracy is reported on it")
    parser.add_argument("--config", choices=sorted(CONFIGS), default="toy")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--max-length", type=int, default=4096)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoint-every", type=int, default=500)
    parser.add_argument("--resume", action="store_true", help="continue from --out's checkpoint")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    out = Path(args.out)
    sequences = read_sequences(args.data, args.max_length)
    heldout = read_sequences(args.heldout, args.max_length) if args.heldout else []
    model = load_weights(out) if args.resume else Llama(VOCAB, **CONFIGS[args.config])
    model.to(args.device)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    start = 0
    if args.resume and (out / "state.pt").exists():
        state = torch.load(out / "state.pt", map_location=args.device)
        optimiser.load_state_dict(state["optimiser"])
        start = state["step"]
    parameters = sum(p.numel() for p in model.parameters())
    print(f"{parameters} parameters, {len(sequences)} sequences, device {args.device}", flush=True)

    def schedule(step):  # linear warm-up, then cosine to a tenth
        warm = max(1, args.steps // 20)
        if step < warm:
            return (step + 1) / warm
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * (step - warm) / max(1, args.steps - warm)))

    def checkpoint(step):
        save_weights(model, out)
        torch.save(dict(step=step, optimiser=optimiser.state_dict()), out / "state.pt")

    started = time.time()
    for step in range(start, args.steps):
        for group in optimiser.param_groups:
            group["lr"] = args.lr * schedule(step)
        model.train()
        loss, accuracy = loss_and_accuracy(model, *batch_of(random.sample(sequences, min(args.batch, len(sequences))), args.device))
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        if step % 10 == 0 or step == args.steps - 1:
            print(f"step {step + 1}/{args.steps} loss {loss.item():.4f} accuracy {accuracy.item():.4f} {time.time() - started:.0f} s", flush=True)
        if (step + 1) % args.checkpoint_every == 0:
            checkpoint(step + 1)
    checkpoint(args.steps)
    if heldout:
        model.eval()
        with torch.no_grad():
            results = [loss_and_accuracy(model, *batch_of(heldout[i : i + args.batch], args.device)) for i in range(0, len(heldout), args.batch)]
        print(f"held-out completion-token accuracy {sum(a.item() for _, a in results) / len(results):.4f}", flush=True)
    print(out.resolve())


if __name__ == "__main__":
    main()
