"""A llama-architecture model computed exactly as llama.cpp computes it.

Tied output (no output.weight: llama.cpp reuses token_embd), RMSNorm with
eps 1e-5, grouped-query attention (query head h reads KV head h // group),
RoPE in llama.cpp's NORM mode (adjacent pairs (2i, 2i+1), not halves; base
10000), SwiGLU feed-forward, no biases. Weights are stored as llama.cpp
reads them: a Linear weight [out, in] in row-major order is the ggml tensor
of dims [in, out].
"""
import json
import math
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIGS = {
    # A few seconds a step on two CPU cores: for tests and for trying the pipeline.
    "toy": dict(embed=32, blocks=1, heads=2, kv_heads=1, ffn=64),
    # The shared trained fixture's shape (4.8M parameters; 5.1 MB as Q8_0).
    "full": dict(embed=256, blocks=6, heads=8, kv_heads=4, ffn=768),
}
RMS_EPS = 1e-5
ROPE_BASE = 10000.0


class RMSNorm(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + RMS_EPS) * self.weight


def rope(x, positions):
    """x: [batch, heads, seq, head_dim]. Rotates adjacent pairs, as llama.cpp's NORM mode."""
    dim = x.shape[-1]
    inverse = ROPE_BASE ** (-torch.arange(0, dim, 2, dtype=torch.float32, device=x.device) / dim)
    angles = positions[:, None].float() * inverse[None, :]
    cos, sin = angles.cos(), angles.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self, embed, heads, kv_heads, ffn):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, embed // heads
        self.attn_norm = RMSNorm(embed)
        self.attn_q = nn.Linear(embed, embed, bias=False)
        self.attn_k = nn.Linear(embed, kv_heads * self.head_dim, bias=False)
        self.attn_v = nn.Linear(embed, kv_heads * self.head_dim, bias=False)
        self.attn_output = nn.Linear(embed, embed, bias=False)
        self.ffn_norm = RMSNorm(embed)
        self.ffn_gate = nn.Linear(embed, ffn, bias=False)
        self.ffn_up = nn.Linear(embed, ffn, bias=False)
        self.ffn_down = nn.Linear(ffn, embed, bias=False)

    def forward(self, x, positions, mask):
        batch, length, embed = x.shape
        h = self.attn_norm(x)
        q = self.attn_q(h).view(batch, length, self.heads, self.head_dim).transpose(1, 2)
        k = self.attn_k(h).view(batch, length, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.attn_v(h).view(batch, length, self.kv_heads, self.head_dim).transpose(1, 2)
        q, k = rope(q, positions), rope(k, positions)
        group = self.heads // self.kv_heads
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(self.head_dim) + mask
        attended = (scores.softmax(-1) @ v).transpose(1, 2).reshape(batch, length, embed)
        x = x + self.attn_output(attended)
        h = self.ffn_norm(x)
        return x + self.ffn_down(F.silu(self.ffn_gate(h)) * self.ffn_up(h))


class Llama(nn.Module):
    def __init__(self, vocab, embed, blocks, heads, kv_heads, ffn):
        super().__init__()
        self.config = dict(vocab=vocab, embed=embed, blocks=blocks, heads=heads, kv_heads=kv_heads, ffn=ffn)
        self.token_embd = nn.Embedding(vocab, embed)
        self.blocks = nn.ModuleList(Block(embed, heads, kv_heads, ffn) for _ in range(blocks))
        self.output_norm = RMSNorm(embed)
        for name, parameter in self.named_parameters():
            if parameter.dim() == 2:
                nn.init.normal_(parameter, std=0.02 if "token_embd" in name else 1 / math.sqrt(parameter.shape[1]))

    def forward(self, tokens):
        length = tokens.shape[1]
        positions = torch.arange(length, device=tokens.device)
        mask = torch.full((length, length), float("-inf"), device=tokens.device).triu(1)
        x = self.token_embd(tokens)
        for block in self.blocks:
            x = block(x, positions, mask)
        return self.output_norm(x) @ self.token_embd.weight.T


def gguf_tensors(model):
    """(name, ggml dims, float32 array) in llama.cpp's names and layout."""
    yield "token_embd.weight", list(reversed(model.token_embd.weight.shape)), model.token_embd.weight
    for index, block in enumerate(model.blocks):
        for name in ["attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm", "ffn_gate", "ffn_up", "ffn_down"]:
            weight = getattr(block, name).weight
            yield f"blk.{index}.{name}.weight", list(reversed(weight.shape)), weight
    yield "output_norm.weight", list(model.output_norm.weight.shape), model.output_norm.weight


def save_weights(model, directory):
    """The exporter's input: model.json (config, tensor index) and model.bin (float32, little-endian)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    index, offset = [], 0
    with open(directory / "model.bin.tmp", "wb") as out:
        for name, dims, tensor in gguf_tensors(model):
            data = tensor.detach().to("cpu", torch.float32).contiguous().numpy().astype("<f4")
            out.write(data.tobytes())
            index.append(dict(name=name, dims=[int(d) for d in dims], offset=offset, count=int(data.size)))
            offset += data.size * 4
    (directory / "model.bin.tmp").replace(directory / "model.bin")
    (directory / "model.json").write_text(json.dumps(dict(config=model.config, rmsEpsilon=RMS_EPS, ropeBase=ROPE_BASE, tensors=index), indent=1))


def load_weights(directory):
    directory = Path(directory)
    meta = json.loads((directory / "model.json").read_text())
    model = Llama(**meta["config"])
    raw = np.fromfile(directory / "model.bin", dtype="<f4")
    tensors = {name: tensor for name, _, tensor in gguf_tensors(model)}
    with torch.no_grad():
        for entry in meta["tensors"]:
            data = raw[entry["offset"] // 4: entry["offset"] // 4 + entry["count"]]
            tensors[entry["name"]].copy_(torch.from_numpy(data.copy()).view(tensors[entry["name"]].shape))
    return model
