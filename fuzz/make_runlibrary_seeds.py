#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the seeds of fuzz/corpus/runlibrary: small run libraries (512-byte
pages, a few KB each) made with the schema the library makes, read from
model/record/RunLibrarySchema.cpp so that the two never differ, and hostile ones.

    python3 fuzz/make_runlibrary_seeds.py [fuzz/corpus/runlibrary]"""
import os
import re
import sqlite3
import sys

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'corpus', 'runlibrary')
source = open(os.path.join(here, '..', 'model', 'record', 'RunLibraryOpen.cpp'), encoding='utf-8').read()
tables = open(os.path.join(here, '..', 'model', 'record', 'RunLibrarySchema.cpp'), encoding='utf-8').read()
schema = re.search(r'kRunsSchema = R"sql\((.*?)\)sql"', tables, re.S).group(1)
application_id = int(re.search(r'kApplicationId = (0x[0-9a-fA-F]+)', source).group(1), 16)

SETTINGS = '{"format":"chargpt-config","version":1,"config":{"emb_size":32,"n_layer":2,"learning_rate":0.005}}'


def library(name, edit='', version=1, tables=True):
    path = os.path.join(out, name)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute('PRAGMA page_size=512')
    db.execute('PRAGMA application_id=%d' % application_id)
    if tables:
        db.executescript(schema)
    db.execute('PRAGMA user_version=%d' % version)
    db.executescript(edit)
    db.commit()
    db.execute('VACUUM')
    db.close()


def run(id, name='run'):
    return ("INSERT INTO runs(id, name, origin, preset, settings, corpus_name, corpus_bytes, corpus_hash, parameters,"
            " seed, first_step, started, steps, best_step, best_val_loss, seconds) VALUES(%d, '%s', 'cli', 'tiny', '%s',"
            " 'builtin:tang300', 29577, 'cbf29ce484222325', 1234, 7, 0, '2026-12-02T09:15:00Z', 40, 30, 2.5, 12.5);"
            % (id, name, SETTINGS))


os.makedirs(out, exist_ok=True)
library('empty')
library('runs', run(1, 'first') + run(2, 'second') +
        ''.join('INSERT INTO points VALUES(1, %d, %f, 0.001, %d, %f);' % (s, 4 - s / 20, s * 64, s / 4)
                for s in range(1, 41)) +
        "INSERT INTO evaluations VALUES(1, 20, 3.0, 3.1, 5.0);INSERT INTO evaluations VALUES(1, 40, 2.0, 2.5, 10.0);"
        "INSERT INTO checkpoints VALUES(1, 40, '/tmp/first-40.pt', '2026-12-02T09:16:00Z');")
library('hostile-check', run(1) + 'ALTER TABLE points ADD COLUMN c INTEGER CHECK (length(hex(zeroblob(1000))) > 0);')
library('hostile-generated',
        run(1) + 'ALTER TABLE runs ADD COLUMN g TEXT GENERATED ALWAYS AS (hex(zeroblob(100000))) VIRTUAL;')
library('hostile-ranges', run(1) +
        'INSERT INTO points VALUES(1, -9223372036854775808, 1.0, 0, 0, 0);'
        'INSERT INTO points VALUES(1, 9223372036854775807, 9e999, 0, 0, 0);'
        'INSERT INTO points VALUES(1, 5, -9e999, 0, -1, 1e308);'
        "INSERT INTO points VALUES(1, 6, 'text', 0, 0, 0);"
        'INSERT INTO evaluations VALUES(1, 9223372036854775807, 9e999, NULL, 0);'
        'UPDATE runs SET steps = -9223372036854775808, best_step = -5, seconds = 1e308, last_train_loss = 9e999;')
library('hostile-unversioned', 'CREATE TABLE points(run, step, c CHECK (length(hex(zeroblob(1000))) > 0));',
        version=0, tables=False)
for name in sorted(os.listdir(out)):
    print(name, os.path.getsize(os.path.join(out, name)))
