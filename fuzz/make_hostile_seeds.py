#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the hostile seeds of fuzz/corpus/checkpoint: one small file for each
class of hostile checkpoint (pickles that recurse or share, stride-0 views,
archives that inflate, storage no tensor uses), as zips laid out as torch.save
writes them, plus two raw pickles for the fuzzer's pickle-only property.

    python3 fuzz/make_hostile_seeds.py [fuzz/corpus/checkpoint]

The stride-0 seeds edit the valid-small seed with torch (python3-torch)."""
import os
import struct
import sys
import zipfile

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'corpus', 'checkpoint')


def text(s):  # BINUNICODE
    b = s.encode()
    return b'X' + struct.pack('<I', len(b)) + b


def archive(name, pickle, extra=(), deflate=()):
    with zipfile.ZipFile(os.path.join(out, name), 'w') as z:
        for entry, data in [('archive/data.pkl', pickle), ('archive/version', b'3\n')] + list(extra):
            method = zipfile.ZIP_DEFLATED if entry in deflate else zipfile.ZIP_STORED
            z.writestr(zipfile.ZipInfo(entry), data, compress_type=method)


def in_checkpoint(value):  # {"format": ..., "version": 1, "config": value}
    return (b'\x80\x02}(' + text('format') + text('chargpt-checkpoint') + text('version') + b'K\x01' +
            text('config') + value + b'u.')


values = {
    'self-list': b']q\x00h\x00a',
    'self-dict': b'}q\x00' + text('a') + b'h\x00s',
    'nested-tuples': b')' + b'\x85' * 2000,
    'nested-lists-appends': b']q\x000' + b'](h\x00eq\x000' * 2000 + b'h\x00',
    'nested-marks': b']' + b'(]' * 2000 + b'e' * 2000,
    'shared-64-levels': b')q\x00' + b'0h\x00h\x00\x86q\x00' * 64,
}
for name, value in values.items():
    archive('hostile-' + name, in_checkpoint(value))
with open(os.path.join(out, 'hostile-raw-shared'), 'wb') as f:
    f.write(b'\x80\x02' + values['shared-64-levels'] + b'.')
with open(os.path.join(out, 'hostile-raw-self-list'), 'wb') as f:
    f.write(b'\x80\x02' + values['self-list'] + b'.')

# A tensor over storage "0" of 4 floats, with the given sizes and strides.
def tensor(sizes, strides):
    ints = lambda xs: b'(' + b''.join(b'K' + bytes([x]) for x in xs) + b't'
    return (b'ctorch._utils\n_rebuild_tensor_v2\n((' + text('storage') + b'ctorch\nFloatStorage\n' + text('0') +
            text('cpu') + b'K\x04tQK\x00' + ints(sizes) + ints(strides) + b'\x89ccollections\nOrderedDict\n)RtR')

archive('hostile-overlapping-view', b'\x80\x02}(' + text('w') + tensor([8, 8], [0, 1]) + b'u.',
        extra=[('archive/data/0', b'\0' * 16)])
archive('hostile-deflated-pickle', b'\x80\x02' + b'N' * (8 << 20) + b'.', deflate=('archive/data.pkl',))
archive('hostile-unused-entry', b'\x80\x02}.', extra=[('archive/data/0', b'\0' * 64)])
archive('hostile-many-deflated', b'\x80\x02}.', extra=[('archive/data/%d' % i, b'\0' * (64 << 10)) for i in range(300)],
        deflate=tuple('archive/data/%d' % i for i in range(300)))
archive('hostile-many-keys', b'\x80\x02}(' + b''.join(text('k%d' % i) + b'K\x01' for i in range(2000)) + b'u.')

try:
    import torch
except ImportError:
    sys.exit(0)
valid = torch.load(os.path.join(out, 'valid-small'))
edited = dict(valid, history=dict(valid['history'], train_loss=torch.zeros(1).expand(2 ** 30)))
torch.save(edited, os.path.join(out, 'hostile-stride0-history'))
edited = dict(valid, model=dict(valid['model'], **{'lm.weight': torch.zeros(1).expand(valid['model']['lm.weight'].shape)}))
torch.save(edited, os.path.join(out, 'hostile-stride0-weight'))
