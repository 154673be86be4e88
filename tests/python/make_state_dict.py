#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Trains the seed's CharGPT for a few steps in PyTorch and saves what the
import tests compare against:

  make_state_dict.py CORPUS OUT_DIR --naming seed|book [--steps N] [--prompt TEXT]

writes OUT_DIR/state_dict.pt  torch.save(model.state_dict(), path): an OrderedDict
       OUT_DIR/reference.pt   {"attention": (L, heads, T, T) softmax weights of
                               every head for the prompt, "logits": (T, vocab)}
       OUT_DIR/greedy.txt     the prompt and 40 greedy characters after it
       OUT_DIR/vocab.json     the book's char_tokenizer.char2ind, as json.dump writes it

`seed` uses the module names of the seed notes (bench/seed_reference.py);
`book` the names of the book's published code (token_embedding, ln1, ff.l1,
ln, lm_head, ...), with the same structure.
"""
import argparse
import json
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import seed_reference as seed  # noqa: E402


class BookFeedForward(nn.Module):
    def __init__(self, emb_size, dropout):
        super().__init__()
        self.l1 = nn.Linear(emb_size, 4 * emb_size)
        self.l2 = nn.Linear(4 * emb_size, emb_size)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.l2(F.gelu(self.l1(x))))


class BookBlock(nn.Module):
    def __init__(self, emb_size, head_size, sequence_len, dropout):
        super().__init__()
        self.mha = seed.MaskedMultiHeadAttention(emb_size, head_size, sequence_len, dropout)
        self.ff = BookFeedForward(emb_size, dropout)
        self.ln1 = nn.LayerNorm(emb_size)
        self.ln2 = nn.LayerNorm(emb_size)

    def forward(self, x):
        x = x + self.mha(self.ln1(x))
        return x + self.ff(self.ln2(x))


class BookCharGPT(nn.Module):
    def __init__(self, vs, emb_size, head_size, n_layer, sequence_len, dropout):
        super().__init__()
        self.sequence_len = sequence_len
        self.token_embedding = nn.Embedding(vs, emb_size)
        self.position_embedding = nn.Embedding(sequence_len, emb_size)
        self.blocks = nn.Sequential(*[BookBlock(emb_size, head_size, sequence_len, dropout) for _ in range(n_layer)])
        self.ln = nn.LayerNorm(emb_size)
        self.lm_head = nn.Linear(emb_size, vs)

    def forward(self, x):
        B, T = x.shape
        pos = torch.arange(0, T, dtype=torch.long, device=x.device)
        h = self.token_embedding(x) + self.position_embedding(pos)
        return self.lm_head(self.ln(self.blocks(h)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("out")
    parser.add_argument("--naming", choices=["seed", "book"], default="seed")
    parser.add_argument("--steps", type=int, default=80)
    parser.add_argument("--prompt", default="")
    parser.add_argument("--emb", type=int, default=32)
    parser.add_argument("--head", type=int, default=8)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--context", type=int, default=16)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(12046)

    text = open(args.corpus, encoding="utf-8").read()
    chars = sorted(set(text))
    char2ind = {ch: i + 1 for i, ch in enumerate(chars)}
    char2ind["<|e|>"] = 0
    vocab = ["<|e|>"] + chars
    data = torch.tensor([char2ind[ch] for ch in text], dtype=torch.long)

    cls = BookCharGPT if args.naming == "book" else seed.CharGPT
    model = cls(len(vocab), args.emb, args.head, args.layers, args.context, 0.1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    T = args.context
    model.train()
    for _ in range(args.steps):
        starts = torch.randint(0, len(data) - T - 1, (16,))
        x = torch.stack([data[s:s + T] for s in starts])
        y = torch.stack([data[s + 1:s + T + 1] for s in starts])
        loss = F.cross_entropy(model(x).view(-1, len(vocab)), y.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()

    os.makedirs(args.out, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(args.out, "state_dict.pt"))
    with open(os.path.join(args.out, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(char2ind, f)

    # The softmax weights of every head, as the seed's attention() computes them.
    captured = []
    hooks = [m.register_forward_hook(lambda module, inputs, output: captured.append((module, inputs[0])))
             for m in model.modules() if isinstance(m, seed.MaskedAttention)]
    prompt = [char2ind[ch] for ch in args.prompt if ch in char2ind][-T:]
    with torch.no_grad():
        logits = model(torch.tensor([prompt], dtype=torch.long))[0]
        weights = []
        for module, x in captured:
            q, k = module.query(x)[0], module.key(x)[0]
            scores = q @ k.T / q.shape[-1] ** 0.5
            scores = scores.masked_fill(module.tril[:len(prompt), :len(prompt)] == 0, float("-inf"))
            weights.append(F.softmax(scores, dim=-1))
    for hook in hooks:
        hook.remove()
    heads = args.emb // args.head
    attention = torch.stack(weights).view(args.layers, heads, len(prompt), len(prompt))
    torch.save({"attention": attention.contiguous(), "logits": logits.contiguous()},
               os.path.join(args.out, "reference.pt"))
    with open(os.path.join(args.out, "greedy.txt"), "w", encoding="utf-8") as f:
        f.write(seed.greedy_text(model, vocab, args.prompt, 40))
    print(json.dumps({"loss": loss.item(), "vocab": len(vocab), "naming": args.naming}))


if __name__ == "__main__":
    main()
