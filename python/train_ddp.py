#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Trains CharGPT Studio's model with PyTorch's DistributedDataParallel, on as
many processes, GPUs and machines as torchrun starts, and writes a checkpoint
that chargpt-studio and `chargpt` open.

  chargpt export-config --preset book --steps 5000 -o config.json
  torchrun --standalone --nproc_per_node=2 python/train_ddp.py \\
      --config config.json --corpus text.txt --out model.pt

The model is the seed's CharGPT of bench/seed_reference.py (one module per
head, the names of CharGPT Studio's checkpoints), initialised, optimised and
scheduled as the app does: GPT-2 initialisation, AdamW with weight decay on
matrices only, linear warm-up then cosine decay, gradient clipping. Every
process draws its own batches of `batch_size` windows, so one step sees
world_size x batch_size windows; gradients are averaged across processes.

The backend is NCCL when CUDA is available (one GPU per process, cuda:LOCAL_RANK)
and Gloo on CPUs; --backend chooses. --init CHECKPOINT continues a checkpoint
(of the app or of this script) instead of starting from scratch; it is read
with tensors and plain values only, never code (see load_checkpoint_file in
bench/seed_reference.py).
"""
import argparse
import json
import math
import os
import stat
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from seed_reference import ARITHMETIC, PART_SWITCHES, CharGPT, load_checkpoint_file  # noqa: E402


def unlike_the_seed(config):
    """The settings by which a model imported from nanoGPT, minGPT or the
    lecture's gpt.py computes unlike the seed's CharGPT, which this trainer builds."""
    return [k for k, v in ARITHMETIC.items() if config.get(k, v) != v]

CONFIG_KEYS = {
    "vocab_size": int, "emb_size": int, "head_size": int, "n_layer": int, "sequence_len": int,
    "dropout": float, "batch_size": int, "learning_rate": float, "min_learning_rate": float,
    "weight_decay": float, "beta1": float, "beta2": float, "grad_clip": float, "warmup_steps": int,
    "max_steps": int, "time_limit_s": float, "eval_interval": int, "eval_iters": int,
    "val_fraction": float, "seed": int, "bf16": bool,
}


def read_config(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != "chargpt-config":
        raise SystemExit("%s is not a config written by `chargpt export-config` or the app" % path)
    config = doc["config"]
    partial = [k for k in PART_SWITCHES if config.get(k, True) is not True]
    if partial:
        raise SystemExit("%s describes a rung of the architecture ladder (without %s); this trainer builds the "
                         "whole CharGPT" % (path, ", ".join(partial)))
    if unlike_the_seed(config):
        raise SystemExit("%s describes a model that computes unlike the seed's CharGPT (%s); this trainer builds "
                         "the seed's" % (path, ", ".join(unlike_the_seed(config))))
    missing = [k for k in CONFIG_KEYS if k not in config]
    if missing:
        raise SystemExit("%s lacks %s" % (path, ", ".join(missing)))
    return {k: CONFIG_KEYS[k](config[k]) for k in CONFIG_KEYS}


def read_corpus(path):
    # Python's text mode turns CRLF into LF, as CharGPT Studio's corpus reader does.
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise SystemExit("%s is empty" % path)
    return text


def init_weights(model, n_layer):
    """GPT-2 initialisation, as CharGPT Studio's model starts."""
    residual = 0.02 / math.sqrt(2 * n_layer)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if isinstance(dict(model.named_modules())[name.rsplit(".", 1)[0]], torch.nn.LayerNorm):
                continue
            if name.endswith(".bias"):
                p.zero_()
            elif name.endswith("mha.proj.weight") or name.endswith("ff.ln2.weight"):
                p.normal_(0.0, residual)
            else:
                p.normal_(0.0, 0.02)


def learning_rate(c, step, time_fraction):
    if step < c["warmup_steps"]:
        return c["learning_rate"] * (step + 1) / (c["warmup_steps"] + 1)
    progress = 0.0
    if c["max_steps"] > c["warmup_steps"]:
        progress = (step - c["warmup_steps"]) / (c["max_steps"] - c["warmup_steps"])
    if c["time_limit_s"] > 0:
        progress = max(progress, time_fraction)
    progress = min(max(progress, 0.0), 1.0)
    return c["min_learning_rate"] + 0.5 * (1 + math.cos(math.pi * progress)) * (c["learning_rate"] - c["min_learning_rate"])


def save_target(path):
    """The file a save to `path` writes: symbolic links are followed to their end.
    Refuses (SystemExit) what must not be replaced: anything but a regular file,
    a file with other hard links, a folder that does not exist or cannot be written."""
    real = os.path.realpath(path)
    if os.path.islink(path) and not os.path.lexists(real):
        raise SystemExit("cannot save to %s: it is a symbolic link to something that does not exist" % path)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise SystemExit("cannot save to %s: %s" % (path, e.strerror))
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise SystemExit("cannot save to %s: it is not a regular file; only a regular file is replaced" % path)
        if st.st_nlink > 1:
            raise SystemExit("cannot save to %s: it has %d hard links; replacing it would leave the other names "
                             "with the old contents" % (path, st.st_nlink))
    folder = os.path.dirname(real) or "."
    if not os.path.isdir(folder):
        raise SystemExit("cannot save to %s: the folder %s does not exist" % (path, folder))
    try:  # the same exclusive temporary file the save makes, made and removed now
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(real) + ".tmp-", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise SystemExit("cannot save to %s: cannot create a file in %s: %s" % (path, folder, e.strerror))
    return real


def save_atomically(obj, path):
    """torch.save through an exclusively created temporary file beside the target,
    renamed over it only when whole; the old file's mode (and owner, where allowed)
    is kept."""
    real = save_target(path)
    folder = os.path.dirname(real) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(real) + ".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            try:
                old = os.stat(real)
                os.fchmod(f.fileno(), stat.S_IMODE(old.st_mode))
                try:
                    os.fchown(f.fileno(), old.st_uid, old.st_gid)
                except PermissionError:
                    pass
            except FileNotFoundError:
                os.fchmod(f.fileno(), 0o644 & ~current_umask())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, real)  # never a half-written checkpoint
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    dirfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", required=True, help="JSON from `chargpt export-config` or the app")
    parser.add_argument("--corpus", required=True, help="a UTF-8 text file")
    parser.add_argument("--out", required=True, help="the checkpoint to write")
    parser.add_argument("--init", help="a checkpoint to continue")
    parser.add_argument("--steps", type=int, help="overrides the config's max_steps")
    parser.add_argument("--backend", choices=["auto", "nccl", "gloo"], default="auto")
    parser.add_argument("--threads", type=int, default=0, help="CPU threads per process (0: PyTorch's choice)")
    args = parser.parse_args()

    # Read before any process group exists: a file that is not a checkpoint (or
    # that asks to run code, which load_checkpoint_file refuses) ends here.
    init = load_checkpoint_file(args.init) if args.init else None
    save_target(args.out)  # an unusable --out is found before training, not after
    c = read_config(args.config)
    if args.steps is not None:
        c["max_steps"] = args.steps
    backend = args.backend
    if backend == "auto":
        backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if backend == "nccl":
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    else:
        device = torch.device("cpu")
    if args.threads > 0:
        torch.set_num_threads(args.threads)

    text = read_corpus(args.corpus)
    vocab = ["<|e|>"] + sorted(set(text))
    index = {ch: i for i, ch in enumerate(vocab) if i > 0}
    if c["vocab_size"] not in (0, len(vocab)):
        raise SystemExit("the config's vocabulary has %d tokens but %s gives %d" % (c["vocab_size"], args.corpus, len(vocab)))
    c["vocab_size"] = len(vocab)
    data = torch.tensor([index[ch] for ch in text], dtype=torch.long)
    T = c["sequence_len"]
    n = len(data)
    if n < T + 1:
        raise SystemExit("the corpus has %d characters; a context of %d needs at least %d" % (n, T, T + 1))
    val = max(T + 1, round(n * c["val_fraction"]))
    splits = {"train": data[:n - val] if n - val >= T + 1 else data, "val": data[max(0, n - val):]}

    torch.manual_seed(c["seed"])  # the same initial weights on every process
    model = CharGPT(c["vocab_size"], c["emb_size"], c["head_size"], c["n_layer"], T, c["dropout"])
    init_weights(model, c["n_layer"])
    step, tokens_seen = 0, 0
    history = {k: [] for k in ("steps", "train_loss", "learning_rate", "eval_steps", "eval_train_loss", "eval_val_loss")}
    if init is not None:
        for key in ("vocab_size", "emb_size", "head_size", "n_layer", "sequence_len"):
            if init["config"][key] != c[key]:
                raise SystemExit("%s has %s %s but the config says %s" % (args.init, key, init["config"][key], c[key]))
        if unlike_the_seed(init["config"]):
            raise SystemExit("%s computes unlike the seed's CharGPT (%s); this trainer builds the seed's"
                             % (args.init, ", ".join(unlike_the_seed(init["config"]))))
        if init["vocab"] != vocab:
            raise SystemExit("%s was trained with another vocabulary than %s gives" % (args.init, args.corpus))
        model.load_state_dict(init["model"], strict=False)
        step, tokens_seen = int(init["step"]), int(init["tokens_seen"])
        for k in history:
            history[k] = init["history"][k].tolist()
    model.to(device)
    ddp = DistributedDataParallel(model, device_ids=[local_rank] if device.type == "cuda" else None)

    names = {p: name for name, p in model.named_parameters()}
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": c["weight_decay"]},
                                   {"params": no_decay, "weight_decay": 0.0}],
                                  lr=c["learning_rate"], betas=(c["beta1"], c["beta2"]), eps=1e-8)
    optimizer_step = 0
    if init is not None and "optimizer" in init:
        optimizer_step = int(init["optimizer"]["step"])
        for p, name in names.items():
            optimizer.state[p] = {"step": torch.tensor(float(optimizer_step)),
                                  "exp_avg": init["optimizer"]["exp_avg"][name].to(device).clone(),
                                  "exp_avg_sq": init["optimizer"]["exp_avg_sq"][name].to(device).clone()}

    generator = torch.Generator().manual_seed(c["seed"] + 1000003 * (rank + 1))  # each process its own batches
    use_bf16 = c["bf16"] and device.type == "cuda"

    def batch(split, size, gen):
        d = splits[split]
        starts = torch.randint(0, len(d) - T, (size,), generator=gen)
        x = torch.stack([d[s:s + T] for s in starts])
        y = torch.stack([d[s + 1:s + T + 1] for s in starts])
        return x.to(device), y.to(device)

    @torch.no_grad()
    def evaluate(split):
        model.eval()
        gen = torch.Generator().manual_seed(c["seed"] + (1 if split == "val" else 2))
        total = 0.0
        for _ in range(c["eval_iters"]):
            x, y = batch(split, c["batch_size"], gen)
            total += F.cross_entropy(model(x).float().view(-1, c["vocab_size"]), y.view(-1)).item()
        model.train()
        return total / c["eval_iters"]

    def log(message):
        if rank == 0:
            print("train_ddp: " + message, file=sys.stderr, flush=True)

    log("%d processes (%s), %s, %d parameters, %d tokens in the vocabulary, %d characters"
        % (world, backend, device.type, sum(p.numel() for p in model.parameters()), len(vocab), n))
    start = time.perf_counter()
    first_step = step
    model.train()
    while True:
        elapsed = time.perf_counter() - start
        done = c["max_steps"] > 0 and step >= c["max_steps"]
        if c["time_limit_s"] > 0:
            # Every process stops at the same step: rank 0's clock decides.
            flag = torch.tensor([1.0 if (done or elapsed >= c["time_limit_s"]) else 0.0], device=device)
            dist.broadcast(flag, 0)
            done = flag.item() > 0
        if done:
            break
        lr = learning_rate(c, step, elapsed / c["time_limit_s"] if c["time_limit_s"] > 0 else 0.0)
        for group in optimizer.param_groups:
            group["lr"] = lr
        x, y = batch("train", c["batch_size"], generator)
        if use_bf16:
            with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
                logits = ddp(x)
        else:
            logits = ddp(x)
        loss = F.cross_entropy(logits.float().view(-1, c["vocab_size"]), y.view(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()  # DDP averages the gradients across processes here
        if c["grad_clip"] > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), c["grad_clip"])
        optimizer.step()
        optimizer_step += 1
        mean_loss = loss.detach().clone()
        dist.all_reduce(mean_loss)
        step += 1
        tokens_seen += world * c["batch_size"] * T
        history["steps"].append(step)
        history["train_loss"].append(mean_loss.item() / world)
        history["learning_rate"].append(lr)
        if rank == 0 and (step % c["eval_interval"] == 0 or step == c["max_steps"]):
            history["eval_steps"].append(step)
            history["eval_train_loss"].append(evaluate("train"))
            history["eval_val_loss"].append(evaluate("val"))
            log("step %d  loss %.4f  val %.4f" % (step, history["train_loss"][-1], history["eval_val_loss"][-1]))

    if rank == 0:
        def cpu(t):
            return t.detach().to("cpu", torch.float32).contiguous().clone()
        weights = {k: cpu(v) for k, v in model.state_dict().items() if not k.endswith(".tril")}
        moments = {"exp_avg": {}, "exp_avg_sq": {}}
        for p, name in names.items():
            state = optimizer.state.get(p, {})
            for key in moments:
                moments[key][name] = cpu(state[key]) if key in state else torch.zeros_like(weights[name])
        checkpoint = {
            "format": "chargpt-checkpoint", "version": 1,
            "config": dict(c), "vocab": vocab, "model": weights,
            "optimizer": {"step": optimizer_step, **moments},
            "step": step, "tokens_seen": tokens_seen,
            "history": {k: torch.tensor(v, dtype=torch.int64 if k in ("steps", "eval_steps") else torch.float32)
                        for k, v in history.items()},
        }
        save_atomically(checkpoint, args.out)
        seconds = time.perf_counter() - start
        print(json.dumps({"steps": step, "seconds": seconds, "processes": world, "backend": backend,
                          "tokens_per_s": (step - first_step) * world * c["batch_size"] * T / max(seconds, 1e-9),
                          "train_loss": history["eval_train_loss"][-1] if history["eval_train_loss"] else None,
                          "val_loss": history["eval_val_loss"][-1] if history["eval_val_loss"] else None,
                          "checkpoint": args.out}), flush=True)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
