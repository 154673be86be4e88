#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Trains small character-level GPTs with the model code of nanoGPT, minGPT
and the lecture's gpt.py (minimal copies of their model classes, below) and
saves them as those projects save them, with what the import tests compare:

  make_foreign_models.py CORPUS OUT_DIR [--steps N] [--prompt TEXT]

writes, for each LAYOUT in nanogpt, nanogpt-nobias, mingpt, lecture:
  OUT_DIR/LAYOUT/reference.pt  {"logits": (T, vocab)} of the prompt
  OUT_DIR/LAYOUT/greedy.txt    the prompt and 40 greedy characters after it
and the model:
  nanogpt/state_dict.pt         torch.save(model.state_dict()), bias=True, no
                                mask buffers (as with PyTorch 2's flash attention)
  nanogpt/meta.pkl              prepare.py's {'vocab_size', 'itos', 'stoi'}
  nanogpt-nobias/out/ckpt.pt    train.py's whole checkpoint of a bias=False model
                                compiled with torch.compile (keys _orig_mod.*),
                                with its attn.bias mask buffers, optimizer and config
  nanogpt-nobias/data/shakespeare_char/meta.pkl   where sample.py finds it
  mingpt/state_dict.pt          minGPT's chargpt: torch.save(model.state_dict())
  lecture/state_dict.pt         the lecture's gpt.py model's state_dict

  make_foreign_models.py --hostile OUT_DIR
writes, from the models above (make them first), files that must be refused:
  wrong-shape.pt      nanoGPT's state_dict with a c_fc weight transposed
  missing-key.pt      the lecture's without blocks.0.ffwd.net.2.weight
  bad-qkv.pt          minGPT's with a c_attn weight of the wrong height
  huge-claim.pt       nanoGPT's with wpe one element claiming 100000 x 100000
  no-heads.pt         nanoGPT's state_dict of a width no minGPT model type has
  meta-small/         nanoGPT's state_dict beside a meta.pkl of fewer characters
  meta-disagrees.pkl  vocab_size, itos and stoi that do not agree
  meta-huge.pkl       a vocab_size of 10**12
  meta-code.pkl       a pickle that would run os.system

  make_foreign_models.py --greedy-nanogpt DIR --prompt TEXT
prints the prompt and 40 greedy characters of DIR/ckpt.pt with DIR/meta.pkl,
loaded as nanoGPT's sample.py loads them (init_from='resume'), and checks that
train.py's resume would load the checkpoint's optimizer state.
"""
import argparse
import json
import math
import os
import pickle
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

# ---- nanoGPT's model.py ------------------------------------------------------


class NanoConfig:
    def __init__(self, **kw):
        self.block_size, self.vocab_size, self.n_layer, self.n_head, self.n_embd = 1024, 50304, 12, 12, 768
        self.dropout, self.bias = 0.0, True
        self.__dict__.update(kw)


class NanoLayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, input):
        return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)


class NanoAttention(nn.Module):
    def __init__(self, config, flash):
        super().__init__()
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.attn_dropout = nn.Dropout(config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.n_head, self.n_embd = config.n_head, config.n_embd
        self.flash = flash
        if not self.flash:
            self.register_buffer("bias", torch.tril(torch.ones(config.block_size, config.block_size))
                                 .view(1, 1, config.block_size, config.block_size))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T) if self.flash else self.bias[:, :, :T, :T]
        att = att.masked_fill(mask == 0, float('-inf'))
        att = self.attn_dropout(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class NanoMLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class NanoBlock(nn.Module):
    def __init__(self, config, flash):
        super().__init__()
        self.ln_1 = NanoLayerNorm(config.n_embd, bias=config.bias)
        self.attn = NanoAttention(config, flash)
        self.ln_2 = NanoLayerNorm(config.n_embd, bias=config.bias)
        self.mlp = NanoMLP(config)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class NanoGPT(nn.Module):
    def __init__(self, config, flash=False):
        super().__init__()
        self.config = config
        self.block_size = config.block_size
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            wpe=nn.Embedding(config.block_size, config.n_embd),
            drop=nn.Dropout(config.dropout),
            h=nn.ModuleList([NanoBlock(config, flash) for _ in range(config.n_layer)]),
            ln_f=NanoLayerNorm(config.n_embd, bias=config.bias),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx):
        pos = torch.arange(0, idx.size(1), dtype=torch.long)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        return self.lm_head(self.transformer.ln_f(x))

    def configure_optimizers(self, weight_decay, learning_rate, betas):
        params = {pn: p for pn, p in self.named_parameters() if p.requires_grad}
        groups = [{'params': [p for p in params.values() if p.dim() >= 2], 'weight_decay': weight_decay},
                  {'params': [p for p in params.values() if p.dim() < 2], 'weight_decay': 0.0}]
        return torch.optim.AdamW(groups, lr=learning_rate, betas=betas)

# ---- minGPT's mingpt/model.py --------------------------------------------------


class NewGELU(nn.Module):
    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class MinAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.attn_dropout = nn.Dropout(0.1)
        self.resid_dropout = nn.Dropout(0.1)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))
        self.n_head, self.n_embd = n_head, n_embd

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
        att = self.attn_dropout(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MinBlock(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = MinAttention(n_embd, n_head, block_size)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.ModuleDict(dict(c_fc=nn.Linear(n_embd, 4 * n_embd), c_proj=nn.Linear(4 * n_embd, n_embd),
                                      act=NewGELU(), dropout=nn.Dropout(0.1)))
        m = self.mlp
        self.mlpf = lambda x: m.dropout(m.c_proj(m.act(m.c_fc(x))))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlpf(self.ln_2(x))


class MinGPT(nn.Module):
    """model_type 'gpt-nano': n_layer 3, n_head 3, n_embd 48."""

    def __init__(self, vocab_size, block_size, n_layer=3, n_head=3, n_embd=48):
        super().__init__()
        self.block_size = block_size
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab_size, n_embd),
            wpe=nn.Embedding(block_size, n_embd),
            drop=nn.Dropout(0.1),
            h=nn.ModuleList([MinBlock(n_embd, n_head, block_size) for _ in range(n_layer)]),
            ln_f=nn.LayerNorm(n_embd),
        ))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx):
        pos = torch.arange(0, idx.size(1), dtype=torch.long).unsqueeze(0)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        return self.lm_head(self.transformer.ln_f(x))

# ---- the lecture's gpt.py --------------------------------------------------------


class Head(nn.Module):
    def __init__(self, n_embd, head_size, block_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer('tril', torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(0.2)

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1]**-0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))
        wei = self.dropout(F.softmax(wei, dim=-1))
        return wei @ self.value(x)


class MultiHeadAttention(nn.Module):
    def __init__(self, n_embd, num_heads, head_size, block_size):
        super().__init__()
        self.heads = nn.ModuleList([Head(n_embd, head_size, block_size) for _ in range(num_heads)])
        self.proj = nn.Linear(head_size * num_heads, n_embd)
        self.dropout = nn.Dropout(0.2)

    def forward(self, x):
        out = torch.cat([h(x) for h in self.heads], dim=-1)
        return self.dropout(self.proj(out))


class FeedFoward(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd),
                                 nn.Dropout(0.2))

    def forward(self, x):
        return self.net(x)


class LectureBlock(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.sa = MultiHeadAttention(n_embd, n_head, n_embd // n_head, block_size)
        self.ffwd = FeedFoward(n_embd)
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        return x + self.ffwd(self.ln2(x))


class GPTLanguageModel(nn.Module):
    def __init__(self, vocab_size, n_embd, n_head, n_layer, block_size):
        super().__init__()
        self.block_size = block_size
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[LectureBlock(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        x = self.token_embedding_table(idx) + self.position_embedding_table(torch.arange(T))
        return self.lm_head(self.ln_f(self.blocks(x)))

# ---- training, references ---------------------------------------------------------


def train(model, data, vocab_size, block_size, steps, optimizer=None):
    optimizer = optimizer or torch.optim.AdamW(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(steps):
        starts = torch.randint(0, len(data) - block_size - 1, (16,))
        x = torch.stack([data[s:s + block_size] for s in starts])
        y = torch.stack([data[s + 1:s + block_size + 1] for s in starts])
        loss = F.cross_entropy(model(x).view(-1, vocab_size), y.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    return optimizer, loss.item()


@torch.no_grad()
def greedy_text(model, itos, stoi, prompt, chars):
    """generate() of the three projects with the argmax in place of sampling:
    the context cropped to the last block_size tokens at every step."""
    idx = torch.tensor([[stoi[ch] for ch in prompt]], dtype=torch.long)
    for _ in range(chars):
        logits = model(idx[:, -model.block_size:])
        idx = torch.cat((idx, logits[:, -1, :].argmax(dim=-1, keepdim=True)), dim=1)
    return "".join(itos[int(i)] for i in idx[0])


def write_reference(model, folder, itos, stoi, prompt):
    with torch.no_grad():
        logits = model(torch.tensor([[stoi[ch] for ch in prompt]], dtype=torch.long))[0]
    torch.save({"logits": logits.contiguous()}, os.path.join(folder, "reference.pt"))
    with open(os.path.join(folder, "greedy.txt"), "w", encoding="utf-8") as f:
        f.write(greedy_text(model, itos, stoi, prompt, 40))


def write_meta(path, chars):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        pickle.dump({'vocab_size': len(chars), 'itos': dict(enumerate(chars)),
                     'stoi': {ch: i for i, ch in enumerate(chars)}}, f)


def make_all(args):
    text = open(args.corpus, encoding="utf-8").read()
    chars = sorted(set(text))  # prepare.py, minGPT's CharDataset and gpt.py alike
    stoi = {ch: i for i, ch in enumerate(chars)}
    itos = dict(enumerate(chars))
    data = torch.tensor([stoi[ch] for ch in text], dtype=torch.long)
    V, T = len(chars), 16
    made = {}

    folder = os.path.join(args.out, "nanogpt")
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(1)
    model = NanoGPT(NanoConfig(block_size=T, vocab_size=V, n_layer=2, n_head=4, n_embd=32, bias=True), flash=True)
    _, made["nanogpt"] = train(model, data, V, T, args.steps)
    torch.save(model.state_dict(), os.path.join(folder, "state_dict.pt"))
    write_meta(os.path.join(folder, "meta.pkl"), chars)
    write_reference(model, folder, itos, stoi, args.prompt)

    folder = os.path.join(args.out, "nanogpt-nobias")
    os.makedirs(os.path.join(folder, "out"), exist_ok=True)
    torch.manual_seed(2)
    model_args = dict(n_layer=2, n_head=2, n_embd=32, block_size=T, bias=False, vocab_size=V, dropout=0.0)
    model = NanoGPT(NanoConfig(**model_args), flash=False)
    optimizer, made["nanogpt-nobias"] = train(model, data, V, T, args.steps,
                                              model.configure_optimizers(0.1, 1e-2, (0.9, 0.99)))
    checkpoint = {
        'model': {'_orig_mod.' + k: v for k, v in model.state_dict().items()},  # as torch.compile's wrapper saves
        'optimizer': optimizer.state_dict(),
        'model_args': model_args,
        'iter_num': 250,
        'best_val_loss': torch.tensor(1.4697),
        'config': {'out_dir': 'out', 'dataset': 'shakespeare_char', 'learning_rate': 1e-3, 'compile': True},
    }
    torch.save(checkpoint, os.path.join(folder, "out", "ckpt.pt"))
    write_meta(os.path.join(folder, "data", "shakespeare_char", "meta.pkl"), chars)
    write_reference(model, folder, itos, stoi, args.prompt)

    folder = os.path.join(args.out, "mingpt")
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(3)
    model = MinGPT(V, T)
    _, made["mingpt"] = train(model, data, V, T, args.steps)
    torch.save(model.state_dict(), os.path.join(folder, "state_dict.pt"))
    write_reference(model, folder, itos, stoi, args.prompt)

    folder = os.path.join(args.out, "lecture")
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(4)
    model = GPTLanguageModel(V, 32, 4, 2, T)
    _, made["lecture"] = train(model, data, V, T, args.steps)
    torch.save(model.state_dict(), os.path.join(folder, "state_dict.pt"))
    write_reference(model, folder, itos, stoi, args.prompt)
    print(json.dumps({"loss": made, "vocab": V}))


class RunsCode:
    def __reduce__(self):
        return (os.system, ('true',))


def make_hostile(out):
    nano = torch.load(os.path.join(out, "nanogpt", "state_dict.pt"))
    lecture = torch.load(os.path.join(out, "lecture", "state_dict.pt"))
    mingpt = torch.load(os.path.join(out, "mingpt", "state_dict.pt"))
    with open(os.path.join(out, "nanogpt", "meta.pkl"), "rb") as f:
        meta = pickle.load(f)
    hostile = os.path.join(out, "hostile")
    os.makedirs(os.path.join(hostile, "meta-small"), exist_ok=True)

    def save(obj, name):
        torch.save(obj, os.path.join(hostile, name))

    wrong = dict(nano)
    wrong["transformer.h.0.mlp.c_fc.weight"] = wrong["transformer.h.0.mlp.c_fc.weight"].t().contiguous()
    save(wrong, "wrong-shape.pt")
    missing = dict(lecture)
    del missing["blocks.0.ffwd.net.2.weight"]
    save(missing, "missing-key.pt")
    bad = dict(mingpt)
    bad["transformer.h.1.attn.c_attn.weight"] = bad["transformer.h.1.attn.c_attn.weight"][:-3].contiguous()
    save(bad, "bad-qkv.pt")
    huge = dict(nano)
    huge["transformer.wpe.weight"] = torch.zeros(1).expand(100000, 100000)
    save(huge, "huge-claim.pt")
    # Width 40 (no minGPT model type) and no model_args: the heads are unknown.
    save(NanoGPT(NanoConfig(block_size=8, vocab_size=meta['vocab_size'], n_layer=1, n_head=5, n_embd=40),
                 flash=True).state_dict(), "no-heads.pt")
    save(nano, os.path.join("meta-small", "state_dict.pt"))
    chars = [meta['itos'][i] for i in range(meta['vocab_size'] - 1)]
    write_meta(os.path.join(hostile, "meta-small", "meta.pkl"), chars)
    with open(os.path.join(hostile, "meta-disagrees.pkl"), "wb") as f:
        pickle.dump({'vocab_size': meta['vocab_size'] + 1, 'itos': meta['itos'], 'stoi': meta['stoi']}, f)
    with open(os.path.join(hostile, "meta-huge.pkl"), "wb") as f:
        pickle.dump({'vocab_size': 10**12, 'itos': meta['itos'], 'stoi': meta['stoi']}, f)
    with open(os.path.join(hostile, "meta-code.pkl"), "wb") as f:
        pickle.dump({'vocab_size': 2, 'itos': {0: 'a', 1: 'b'}, 'stoi': RunsCode()}, f)


def greedy_nanogpt(args):
    """sample.py's init_from='resume' (then the argmax), and train.py's resume
    of the model and the optimizer from the same files."""
    checkpoint = torch.load(os.path.join(args.greedy_nanogpt, "ckpt.pt"), map_location="cpu")
    # nanoGPT on PyTorch 2 (flash attention): no attn.bias mask buffers to load.
    model = NanoGPT(NanoConfig(**checkpoint['model_args']), flash=True)
    state_dict = checkpoint['model']
    unwanted_prefix = '_orig_mod.'
    for k, v in list(state_dict.items()):
        if k.startswith(unwanted_prefix):
            state_dict[k[len(unwanted_prefix):]] = state_dict.pop(k)
    model.load_state_dict(state_dict)
    model.eval()
    optimizer = model.configure_optimizers(0.1, 1e-3, (0.9, 0.99))
    optimizer.load_state_dict(checkpoint['optimizer'])
    int(checkpoint['iter_num']), float(checkpoint['best_val_loss']), checkpoint['config']['dataset']
    with open(os.path.join(args.greedy_nanogpt, "meta.pkl"), "rb") as f:
        meta = pickle.load(f)
    sys.stdout.write(greedy_text(model, meta['itos'], meta['stoi'], args.prompt, 40) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--prompt", default="")
    parser.add_argument("--greedy-nanogpt", metavar="DIR")
    parser.add_argument("--hostile", metavar="OUT_DIR")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.greedy_nanogpt:
        greedy_nanogpt(args)
    elif args.hostile:
        make_hostile(args.hostile)
    else:
        make_all(args)


if __name__ == "__main__":
    main()
