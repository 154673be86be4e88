#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What `chargpt attribute --json` and `chargpt patch --json` compute, worked
out again in PyTorch on the seed's CharGPT (bench/seed_reference.py: one
module per head, outputs concatenated), in float64, for tst_why_pytorch:

  why_reference.py attribute CHECKPOINT --text TEXT --position N [--char C]
  why_reference.py patch CHECKPOINT --clean TEXT --corrupted TEXT --target C [--wrong C]

Each prints one JSON object with the fields of the CLI's. The attribution
reads each part through the final LayerNorm the other way round from the
C++ code: the part's vector centred and divided by the position's frozen
scale, then gamma, then the head's row. The patches are forward hooks on the
seed's modules, one pass per patch.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import seed_reference as seed  # noqa: E402


def load(path):
    model, vocab, _ = seed.load_checkpoint(path)
    model = model.double()
    index = {ch: i for i, ch in enumerate(vocab) if i > 0}
    return model, vocab, index


def run_blocks(model, x, after_block=None):
    """The stream after each block; after_block(i, x) may replace it."""
    streams = [x]
    for i, block in enumerate(model.blocks):
        x = x + block.mha(block.l1(x))
        x = x + block.ff(block.l2(x))
        if after_block is not None:
            x = after_block(i + 1, x)
        streams.append(x)
    return streams


def embeddings(model, tokens):
    idx = torch.tensor([tokens])
    return model.token_emb(idx) + model.pos_emb(torch.arange(len(tokens)))


def attribute(args):
    model, vocab, index = load(args.checkpoint)
    tokens = [index[ch] for ch in args.text[: args.position + 1]]
    t = args.position
    head_outputs = {}
    hooks = []
    for l, block in enumerate(model.blocks):
        for h, head in enumerate(block.mha.heads):
            hooks.append(head.register_forward_hook(
                lambda m, inp, out, l=l, h=h: head_outputs.__setitem__((l, h), out.detach())))
    with torch.no_grad():
        x0 = embeddings(model, tokens)
        streams = run_blocks(model, x0)
        logits = model.lm(model.l(streams[-1]))[0, t]
    for hook in hooks:
        hook.remove()
    top = int(logits.argmax())
    chosen = index[args.char] if args.char else top
    others = logits.clone()
    others[chosen] = float("-inf")
    runner_up = int(others.argmax())
    final = streams[-1][0, t]
    sigma = torch.sqrt(final.var(unbiased=False) + model.l.eps)
    gamma, beta = model.l.weight.detach(), model.l.bias.detach()
    w, b = model.lm.weight.detach(), model.lm.bias.detach()

    def read(v):
        centred = (v - v.mean()) / sigma * gamma
        return [float(w[chosen] @ centred), float((w[chosen] - w[runner_up]) @ centred)]

    parts = [("token_embedding", None, None, read(model.token_emb.weight[tokens[t]].detach())),
             ("position_embedding", None, None, read(model.pos_emb.weight[t].detach()))]
    with torch.no_grad():
        x = x0
        for l, block in enumerate(model.blocks):
            H = block.mha.heads[0].key.out_features
            proj = block.mha.proj
            for h in range(len(block.mha.heads)):
                z = head_outputs[(l, h)][0, t]
                parts.append(("head", l + 1, h + 1, read(proj.weight[:, h * H:(h + 1) * H] @ z)))
            parts.append(("projection_bias", l + 1, None, read(proj.bias)))
            x = x + block.mha(block.l1(x))
            ff = block.ff
            hidden = torch.nn.functional.gelu(ff.ln1(block.l2(x)))
            parts.append(("feed_forward", l + 1, None, read((ff.ln2.weight @ hidden[0, t]))))
            parts.append(("feed_forward_bias", l + 1, None, read(ff.ln2.bias)))
            x = x + ff(block.l2(x))
    parts.append(("final_norm_bias", None, None, [float(w[chosen] @ beta), float((w[chosen] - w[runner_up]) @ beta)]))
    parts.append(("head_bias", None, None, [float(b[chosen]), float(b[chosen] - b[runner_up])]))

    x0 = embeddings(model, tokens).detach().requires_grad_(True)
    logit = model.lm(model.l(run_blocks(model, x0)[-1]))[0, t, chosen]
    logit.backward()
    gradient_x_input = (x0.grad * x0.detach()).sum(-1)[0].tolist()

    out = {"char": vocab[chosen], "top": chosen == top, "logit": float(logits[chosen]),
           "probability": float(torch.softmax(logits, 0)[chosen]),
           "runner_up": {"char": vocab[runner_up], "logit": float(logits[runner_up])},
           "margin": float(logits[chosen] - logits[runner_up]), "final_norm_scale": float(sigma),
           "parts": [dict({"part": p}, **({"layer": l} if l else {}), **({"head": h} if h else {}),
                          logit=v[0], margin=v[1]) for p, l, h, v in parts],
           "gradient_x_input": gradient_x_input}
    print(json.dumps(out))


def patch(args):
    model, vocab, index = load(args.checkpoint)
    clean = [index[ch] for ch in args.clean]
    corrupted = [index[ch] for ch in args.corrupted]
    target = index[args.target]
    T = len(clean)

    def logits_of(tokens, after_block=None, hooks=()):
        handles = [module.register_forward_hook(fn) for module, fn in hooks]
        try:
            x = embeddings(model, tokens)
            if after_block is not None:
                x = after_block(0, x)
            return model.lm(model.l(run_blocks(model, x, after_block)[-1]))[0, -1]
        finally:
            for handle in handles:
                handle.remove()

    with torch.no_grad():
        clean_logits, corrupted_logits = logits_of(clean), logits_of(corrupted)
        if args.wrong:
            wrong = index[args.wrong]
        else:
            others = corrupted_logits.clone()
            others[target] = float("-inf")
            wrong = int(others.argmax())

        def difference(logits):
            return float(logits[target] - logits[wrong])

        clean_d, corrupted_d = difference(clean_logits), difference(corrupted_logits)

        def restored(logits):
            return (difference(logits) - corrupted_d) / (clean_d - corrupted_d)

        # What the clean run's heads and feed-forwards output, and its stream.
        saved = {}
        hooks = []
        for l, block in enumerate(model.blocks):
            for h, head in enumerate(block.mha.heads):
                hooks.append((head, lambda m, i, o, key=("head", l, h): saved.__setitem__(key, o)))
            hooks.append((block.ff, lambda m, i, o, key=("ff", l): saved.__setitem__(key, o)))
        streams = {}
        logits_of(clean, lambda i, x: streams.__setitem__(i, x) or x, hooks)

        residual = []
        for layer in range(len(model.blocks) + 1):
            row = []
            for t in range(T):
                def put(i, x, layer=layer, t=t):
                    if i != layer:
                        return x
                    x = x.clone()
                    x[0, t] = streams[layer][0, t]
                    return x
                row.append(restored(logits_of(corrupted, put)))
            residual.append(row)
        heads = []
        feed_forward = []
        for l, block in enumerate(model.blocks):
            heads.append([restored(logits_of(corrupted, hooks=[(head, lambda m, i, o, key=("head", l, h): saved[key])]))
                          for h, head in enumerate(block.mha.heads)])
            row = []
            for t in range(T):
                def ff_hook(m, i, o, l=l, t=t):
                    o = o.clone()
                    o[0, t] = saved[("ff", l)][0, t]
                    return o
                row.append(restored(logits_of(corrupted, hooks=[(block.ff, ff_hook)])))
            feed_forward.append(row)
    print(json.dumps({"target": vocab[target], "wrong": vocab[wrong], "clean_difference": clean_d,
                      "corrupted_difference": corrupted_d, "residual": residual, "heads": heads,
                      "feed_forward": feed_forward}))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["attribute", "patch"])
    parser.add_argument("checkpoint")
    parser.add_argument("--text")
    parser.add_argument("--position", type=int)
    parser.add_argument("--char")
    parser.add_argument("--clean")
    parser.add_argument("--corrupted")
    parser.add_argument("--target")
    parser.add_argument("--wrong")
    args = parser.parse_args()
    torch.set_num_threads(1)
    attribute(args) if args.mode == "attribute" else patch(args)


if __name__ == "__main__":
    main()
