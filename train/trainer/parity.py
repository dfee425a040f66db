"""Log-probabilities PyTorch computes for held-out prompts, for the parity test.

  python3 train/trainer/parity.py --weights train/out/full --data heldout.jsonl --out parity.json

Reads the weights exactly as exported (model.json, model.bin) and writes, for
the first generations of the held-out runs, the tokens and the next-token
log-probabilities at the last positions; the parity test evaluates the same
tokens with node-llama-cpp on the exported GGUF and compares.
"""
import argparse
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from model import load_weights  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--examples", type=int, default=3)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    model = load_weights(args.weights).eval()
    examples = []
    with open(args.data) as lines:
        for line in lines:
            if len(examples) == args.examples:
                break
            generation = json.loads(line)["generations"][0]
            tokens = generation["prompt"] + generation["completion"][: args.positions - 1]
            with torch.no_grad():
                logprobs = model(torch.tensor([tokens])).log_softmax(-1)[0, -args.positions :]
            examples.append(dict(tokens=tokens, positions=list(range(len(tokens) - args.positions, len(tokens))), logprobs=logprobs.tolist()))
    Path(args.out).write_text(json.dumps(dict(examples=examples)))
    print(Path(args.out).resolve())


if __name__ == "__main__":
    main()
