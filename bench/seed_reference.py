#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The seed's CharGPT in PyTorch, written as the seed writes it (one module per
head, outputs concatenated), for side-by-side measurements with CharGPT Studio.

  seed_reference.py train CORPUS --emb 128 --head 8 --layers 12 --context 64
                    --dropout 0.4 --batch 64 --steps 20 --threads 2 [--bf16]
      trains and prints one JSON line: tokens/s of the timed steps.
  seed_reference.py generate --emb ... --vocab 65 --chars 500 --threads 2
      greedy generation with a full recompute per character (the seed's way),
      prints one JSON line: characters/s.
  seed_reference.py greedy CHECKPOINT --prompt TEXT --chars 200
      opens a CharGPT Studio checkpoint with torch.load, loads its weights into
      this CharGPT with load_state_dict and prints the prompt and its greedy
      continuation (temperature 0; stops at <|e|>), as `chargpt sample
      --temperature 0` does.
"""
import argparse
import json
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(query, key, value, dropout, mask=None):
    # query, key, value: (B, T, H); mask: (T, T); out: (B, T, H)
    B, T, H = query.shape
    scores = query @ key.transpose(-2, -1) / H ** 0.5
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    w_att = F.softmax(scores, dim=-1)  # (B, T, T)
    out = w_att @ value  # (B, T, H)
    return out


class MaskedAttention(nn.Module):
    def __init__(self, emb_size, head_size, sequence_len, dropout):
        super().__init__()
        self.key = nn.Linear(emb_size, head_size, bias=False)
        self.query = nn.Linear(emb_size, head_size, bias=False)
        self.value = nn.Linear(emb_size, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(sequence_len, sequence_len)))
        self.dp = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        v = self.value(x)
        mask = self.tril[:T, :T]
        return attention(q, k, v, self.dp, mask)


class MaskedMultiHeadAttention(nn.Module):
    def __init__(self, emb_size, head_size, sequence_len, dropout):
        super().__init__()
        n_head = emb_size // head_size
        heads = [MaskedAttention(emb_size, head_size, sequence_len, dropout) for _ in range(n_head)]
        self.heads = nn.ModuleList(heads)
        self.proj = nn.Linear(emb_size, emb_size)
        self.dp = nn.Dropout(dropout)

    def forward(self, x):
        out = torch.concat([h(x) for h in self.heads], dim=-1)
        return self.dp(self.proj(out))


class FeedForward(nn.Module):
    def __init__(self, emb_size, dropout):
        super().__init__()
        self.ln1 = nn.Linear(emb_size, 4 * emb_size)
        self.ln2 = nn.Linear(4 * emb_size, emb_size)
        self.dp = nn.Dropout(dropout)

    def forward(self, x):
        out = F.gelu(self.ln1(x))
        return self.dp(self.ln2(out))


class Block(nn.Module):
    def __init__(self, emb_size, head_size, sequence_len, dropout):
        super().__init__()
        self.l1 = nn.LayerNorm(emb_size)
        self.mha = MaskedMultiHeadAttention(emb_size, head_size, sequence_len, dropout)
        self.l2 = nn.LayerNorm(emb_size)
        self.ff = FeedForward(emb_size, dropout)

    def forward(self, x):
        x = x + self.mha(self.l1(x))
        x = x + self.ff(self.l2(x))
        return x


class CharGPT(nn.Module):
    def __init__(self, vs, emb_size, head_size, n_layer, sequence_len, dropout):
        super().__init__()
        self.sequence_len = sequence_len
        self.token_emb = nn.Embedding(vs, emb_size)
        self.pos_emb = nn.Embedding(sequence_len, emb_size)
        blocks = [Block(emb_size, head_size, sequence_len, dropout) for _ in range(n_layer)]
        self.blocks = nn.Sequential(*blocks)
        self.l = nn.LayerNorm(emb_size)
        self.lm = nn.Linear(emb_size, vs)

    def forward(self, x):
        B, T = x.shape
        pos = torch.arange(0, T, dtype=torch.long, device=x.device)
        h = self.token_emb(x) + self.pos_emb(pos)
        h = self.blocks(h)
        return self.lm(self.l(h))


def build(args, vocab):
    torch.manual_seed(12046)
    return CharGPT(vocab, args.emb, args.head, args.layers, args.context, args.dropout)


def encode_corpus(path):
    text = open(path, encoding="utf-8").read()
    chars = sorted(set(text))
    index = {c: i + 1 for i, c in enumerate(chars)}  # 0 is <|e|>
    return torch.tensor([index[c] for c in text], dtype=torch.long), len(chars) + 1


def train(args):
    data, vocab = encode_corpus(args.corpus)
    model = build(args, vocab)
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    generator = torch.Generator().manual_seed(12046)
    T = args.context

    def step():
        starts = torch.randint(0, len(data) - T - 1, (args.batch,), generator=generator)
        x = torch.stack([data[s:s + T] for s in starts])
        y = torch.stack([data[s + 1:s + T + 1] for s in starts])
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.bf16):
            logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, vocab), y.view(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        return loss.item()

    for _ in range(args.warmup):
        step()
    start = time.perf_counter()
    for _ in range(args.steps):
        loss = step()
    seconds = time.perf_counter() - start
    print(json.dumps({"tokens_per_s": args.steps * args.batch * T / seconds, "seconds": seconds,
                      "steps": args.steps, "loss": loss, "threads": torch.get_num_threads()}))


@torch.no_grad()
def generate(args):
    model = build(args, args.vocab)
    model.eval()
    idx = torch.zeros((1, 1), dtype=torch.long)
    start = time.perf_counter()
    for _ in range(args.chars):
        logits = model(idx[:, -args.context:])
        nxt = logits[:, -1, :].argmax(dim=-1, keepdim=True)
        idx = torch.cat((idx, nxt), dim=1)
    seconds = time.perf_counter() - start
    print(json.dumps({"chars_per_s": args.chars / seconds, "seconds": seconds, "chars": args.chars}))


def load_checkpoint(path):
    """A CharGPT Studio checkpoint as (model in eval mode, vocabulary list, the dict).

    The checkpoint's "model" holds every weight under this module tree's names;
    only the heads' `tril` masks are absent (the model builds them itself)."""
    ckpt = torch.load(path, map_location="cpu")
    c = ckpt["config"]
    model = CharGPT(c["vocab_size"], c["emb_size"], c["head_size"], c["n_layer"], c["sequence_len"], c["dropout"])
    missing, unexpected = model.load_state_dict(ckpt["model"], strict=False)
    if unexpected or any(not name.endswith(".tril") for name in missing):
        raise SystemExit("the checkpoint does not fit the seed's CharGPT: missing %s, unexpected %s"
                         % ([m for m in missing if not m.endswith(".tril")], unexpected))
    model.eval()
    return model, ckpt["vocab"], ckpt


@torch.no_grad()
def greedy_text(model, vocab, prompt, chars):
    """The prompt's known characters and up to `chars` greedy ones after them."""
    index = {ch: i for i, ch in enumerate(vocab) if i > 0}
    tokens = [index[ch] for ch in prompt if ch in index]
    idx = torch.tensor([tokens or [0]], dtype=torch.long)  # an empty prompt starts at <|e|>
    out = [vocab[t] for t in tokens]
    for _ in range(chars):
        logits = model(idx[:, -model.sequence_len:])
        nxt = int(logits[0, -1].argmax())
        if nxt == 0:  # end of text
            break
        out.append(vocab[nxt])
        idx = torch.cat((idx, torch.tensor([[nxt]], dtype=torch.long)), dim=1)
    return "".join(out)


def greedy(args):
    model, vocab, _ = load_checkpoint(args.corpus)
    sys.stdout.write(greedy_text(model, vocab, args.prompt, args.chars) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["train", "generate", "greedy"])
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("--emb", type=int, default=128)
    parser.add_argument("--head", type=int, default=8)
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--context", type=int, default=64)
    parser.add_argument("--dropout", type=float, default=0.4)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--bf16", action="store_true")
    parser.add_argument("--vocab", type=int, default=65)
    parser.add_argument("--chars", type=int, default=500)
    parser.add_argument("--prompt", default="")
    args = parser.parse_args()
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    if args.mode == "train":
        if not args.corpus:
            parser.error("train needs a corpus")
        train(args)
    elif args.mode == "greedy":
        if not args.corpus:
            parser.error("greedy needs a checkpoint")
        greedy(args)
    else:
        generate(args)


if __name__ == "__main__":
    main()
