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
      opens a CharGPT Studio checkpoint with torch.load (load_checkpoint_file:
      tensors and plain values only, never code), loads its weights into
      this CharGPT with load_state_dict and prints the prompt and its greedy
      continuation (temperature 0; stops at <|e|>), as `chargpt sample
      --temperature 0` does.
"""
import argparse
import collections
import json
import pickle
import sys
import time
import zipfile

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


class _Refused(Exception):
    pass


def _storage_dtypes():
    names = {"FloatStorage": "float32", "DoubleStorage": "float64", "HalfStorage": "float16",
             "BFloat16Storage": "bfloat16", "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16",
             "CharStorage": "int8", "ByteStorage": "uint8", "BoolStorage": "bool"}
    return {("torch", k): getattr(torch, v) for k, v in names.items()}


def _rebuild_tensor(storage, offset, size, stride, requires_grad=False, backward_hooks=None, *metadata):
    # `storage` is the flat tensor persistent_load made; as_strided refuses a
    # view that reaches past it.
    tensor = torch.as_strided(storage, tuple(size), tuple(stride), int(offset))
    return tensor.requires_grad_(bool(requires_grad)) if tensor.is_floating_point() else tensor


def _same(value, *type_tag):
    return value


# Everything a checkpoint's pickle may name: containers, tensors and the
# identity type tags of checkpoints written by LibTorch (CharGPT Studio).
# Anything else (os.system, builtins.eval, any class) is refused unbuilt.
_ALLOWED_GLOBALS = {
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
    ("torch._utils", "_rebuild_parameter"): lambda data, requires_grad, *hooks: torch.nn.Parameter(data, requires_grad),
    ("torch", "Size"): torch.Size,
    ("torch.jit._pickle", "restore_type_tag"): _same,
    ("torch.jit._pickle", "build_intlist"): _same,
    ("torch.jit._pickle", "build_doublelist"): _same,
    ("torch.jit._pickle", "build_boollist"): _same,
    ("torch.jit._pickle", "build_tensorlist"): _same,
}


def _load_zip_restricted(path):
    """A torch.save zip archive (also what LibTorch writes) read with a pickle
    Unpickler that builds only the globals above, tensors from the archive's
    own storages (little-endian, as torch.save writes them on every machine
    these scripts run on)."""
    dtypes = _storage_dtypes()
    with zipfile.ZipFile(path) as archive:
        pickles = [n for n in archive.namelist() if n.endswith("/data.pkl") and n.count("/") == 1]
        if len(pickles) != 1:
            raise _Refused("it is not a torch.save archive (no single data.pkl)")
        prefix = pickles[0][:-len("data.pkl")]
        storages = {}  # by key: views of one storage share it, as in torch.load

        class Unpickler(pickle.Unpickler):
            def find_class(self, module, name):
                if (module, name) in dtypes:
                    return dtypes[(module, name)]
                if (module, name) in _ALLOWED_GLOBALS:
                    return _ALLOWED_GLOBALS[(module, name)]
                raise _Refused("its pickle asks for %s.%s, which a checkpoint never needs" % (module, name))

            def persistent_load(self, pid):
                if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"
                        and isinstance(pid[1], torch.dtype) and isinstance(pid[2], str)):
                    raise _Refused("it refers to %r, not to one of its tensors' storages" % (pid,))
                key = (pid[2], pid[1])
                if key not in storages:
                    data = bytearray(archive.read(prefix + "data/" + pid[2]))
                    storages[key] = torch.frombuffer(data, dtype=pid[1]) if data else torch.empty(0, dtype=pid[1])
                return storages[key]

        with archive.open(pickles[0]) as f:
            return Unpickler(f).load()


def load_checkpoint_file(path):
    """torch.load(path) that builds tensors and plain values only: a file whose
    pickle names any other Python object (a crafted one that would run
    os.system, say) ends the program with a message, and nothing of it runs.

    PyTorch's own weights_only=True comes first. PyTorch 1.13's refuses every
    CharGPT Studio checkpoint (it knows neither LibTorch's type tags nor the
    BINFLOAT opcode of a float in the config), and its torch.load cannot take
    a restricted pickle_module instead (it replaces any by plain pickle when
    weights_only is off), so a zip archive it refuses is read by
    _load_zip_restricted, which keeps the same rule."""
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:
        refused = str(e).split("WeightsUnpickler error: ")[-1]
    if zipfile.is_zipfile(path):
        try:
            return _load_zip_restricted(path)
        except _Refused as e:
            refused = str(e)
        except (pickle.UnpicklingError, KeyError, ValueError, RuntimeError, EOFError, zipfile.BadZipFile) as e:
            refused = "it is not a readable checkpoint (%s)" % e
    raise SystemExit("refusing to load %s: %s" % (path, refused))


# The switches of the network's parts that CharGPT Studio's checkpoints keep
# only when off (a rung of its architecture ladder); absent, a part is there.
PART_SWITCHES = ("positions", "scaled_attention", "attention_projection", "feed_forward", "residual", "final_norm")
# How a model imported from nanoGPT, minGPT or the lecture's gpt.py computes,
# kept only when it differs from the seed's CharGPT (these defaults).
ARITHMETIC = {"activation": 0, "qkv_bias": False, "biases": True, "head_bias": True, "tied_head": False}


def load_checkpoint(path):
    """A CharGPT Studio checkpoint as (model in eval mode, vocabulary list, the dict).

    The checkpoint's "model" holds every weight under this module tree's names;
    only the heads' `tril` masks are absent (the model builds them itself)."""
    ckpt = load_checkpoint_file(path)
    c = ckpt["config"]
    missing_parts = [k for k in PART_SWITCHES if c.get(k, True) is not True]
    if missing_parts:
        raise SystemExit("%s is a rung of CharGPT Studio's architecture ladder (without %s); the seed's CharGPT "
                         "has every part" % (path, ", ".join(missing_parts)))
    differs = [k for k, v in ARITHMETIC.items() if c.get(k, v) != v]
    if differs:
        raise SystemExit("%s computes unlike the seed's CharGPT (%s); chargpt export --format nanogpt writes a "
                         "model nanoGPT can load" % (path, ", ".join(differs)))
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
