// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hand-made zip archives and pickles laid out as torch.save writes them, for
// the tests that feed CharGPT Studio files that are not its checkpoints.

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QPair>
#include <QString>

#include <array>

namespace checkpoint_fixtures {

// --- hand-made archives and pickles, laid out as torch.save writes them ---

inline quint32 crc32(const QByteArray& bytes) {
    static const auto table = [] {
        std::array<quint32, 256> t{};
        for (quint32 i = 0; i < 256; ++i) {
            quint32 c = i;
            for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
            t[i] = c;
        }
        return t;
    }();
    quint32 crc = 0xFFFFFFFFu;
    for (const char ch : bytes) crc = table[(crc ^ static_cast<unsigned char>(ch)) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

inline void le(QByteArray& out, quint64 value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.append(char((value >> (8 * i)) & 0xFF));
}

// One entry of a hand-made zip: stored, or deflated (raw deflate, as zip has it).
struct ZipEntry {
    QByteArray name, data;
    bool deflate = false;
};

// Raw deflate: zlib's stream (what qCompress writes after its 4-byte size)
// without its 2-byte header and 4-byte checksum.
inline QByteArray deflateRaw(const QByteArray& data) { return qCompress(data, 9).mid(6).chopped(4); }

// A zip of the given entries: local headers, central directory, end record.
inline QByteArray makeZipOf(const QList<ZipEntry>& entries) {
    QByteArray zip, directory;
    for (const ZipEntry& entry : entries) {
        const QByteArray& name = entry.name;
        const QByteArray stored = entry.deflate ? deflateRaw(entry.data) : entry.data;
        const quint32 offset = quint32(zip.size());
        const quint32 crc = crc32(entry.data);
        QByteArray common;
        le(common, 0, 2);                      // flags
        le(common, entry.deflate ? 8 : 0, 2);  // deflated or stored
        le(common, 0, 4);                      // time, date
        le(common, crc, 4);
        le(common, quint64(stored.size()), 4);
        le(common, quint64(entry.data.size()), 4);
        le(common, quint64(name.size()), 2);
        le(common, 0, 2);  // extra field
        zip.append("PK\x03\x04", 4);
        le(zip, 20, 2);  // version needed
        zip.append(common).append(name).append(stored);
        directory.append("PK\x01\x02", 4);
        le(directory, 20, 2);  // version made by
        le(directory, 20, 2);  // version needed
        directory.append(common);
        le(directory, 0, 2);  // comment
        le(directory, 0, 2);  // disk
        le(directory, 0, 2);  // internal attributes
        le(directory, 0, 4);  // external attributes
        le(directory, offset, 4);
        directory.append(name);
    }
    const quint32 directoryOffset = quint32(zip.size());
    zip.append(directory);
    zip.append("PK\x05\x06", 4);
    le(zip, 0, 2);
    le(zip, 0, 2);
    le(zip, quint64(entries.size()), 2);
    le(zip, quint64(entries.size()), 2);
    le(zip, quint64(directory.size()), 4);
    le(zip, directoryOffset, 4);
    le(zip, 0, 2);
    return zip;
}

// A zip of stored (uncompressed) entries.
inline QByteArray makeZip(const QList<QPair<QByteArray, QByteArray>>& entries) {
    QList<ZipEntry> list;
    for (const auto& [name, data] : entries) list.append(ZipEntry{name, data, false});
    return makeZipOf(list);
}

// A torch.save archive whose data.pkl is `pickle`.
inline QByteArray torchArchive(const QByteArray& pickle) {
    return makeZip({{"archive/data.pkl", pickle}, {"archive/version", "3\n"}});
}

// Pickle instructions: BINUNICODE "text" and SHORT_BINUNICODE "text".
inline QByteArray text4(const QByteArray& s) {
    QByteArray out("X");
    le(out, quint64(s.size()), 4);
    return out + s;
}
inline QByteArray text1(const QByteArray& s) {
    QByteArray out("\x8c");
    le(out, quint64(s.size()), 1);
    return out + s;
}
// Protocol 2: GLOBAL module.name, then REDUCE it with one argument: name(argument).
inline QByteArray globalCall(const QByteArray& module, const QByteArray& name, const QByteArray& argument) {
    return QByteArray(
               "\x80\x02"
               "c") +
           module + "\n" + name + "\n" + text4(argument) + "\x85R.";
}

// A pickle that, were it run by Python, would call a function: `touch` creates marker.
inline QByteArray codePickle(const QString& kind, const QByteArray& marker) {
    const QByteArray touch = "touch " + marker;
    if (kind == "os.system") return globalCall("os", "system", touch);
    if (kind == "posix.system") return globalCall("posix", "system", touch);
    if (kind == "builtins.eval")
        return globalCall("builtins", "eval", "__import__('os').system('" + touch + "')");
    if (kind == "__builtin__.exec")
        return globalCall("__builtin__", "exec", "import os; os.system('" + touch + "')");
    if (kind == "torch.load") return globalCall("torch", "load", marker);
    if (kind == "subprocess.Popen")  // protocol 0 INST: MARK, arguments, INST module name
        return QByteArray("(") + text4("touch") + text4(marker) + "isubprocess\nPopen\n.";
    if (kind == "stack global")
        return QByteArray("\x80\x04", 2) + text1("posix") + "\x94" + text1("system") + "\x94\x93\x94" +
               text4(touch) + "\x94\x85\x94R\x94.";
    if (kind == "memoised stack global")
        return QByteArray("\x80\x04", 2) + text1("os") + "\x94" + text1("system") +
               QByteArray("\x94h\x00h\x01\x93", 6) + text4(touch) + QByteArray("\x85R.", 3);
    if (kind == "copyreg") return QByteArray("\x80\x02\x82\x01", 4) + text4(touch) + "\x85R.";
    if (kind == "inside a checkpoint")
        return QByteArray("\x80\x02}q\x00(", 6) + text4("format") + text4("chargpt-checkpoint") +
               text4("version") + "K\x01" + text4("model") + "cos\nsystem\n" + text4(touch) + "\x85Ru.";
    return {};
}

// --- hostile pickles: recursion, sharing and sizes (issue 13) ---

// A pickle integer: BININT1 for 0..255, else LONG1 of 8 bytes.
inline QByteArray intOp(qint64 v) {
    QByteArray out;
    if (v >= 0 && v < 256) {
        out.append('K');
        le(out, quint64(v), 1);
    } else {
        out.append("\x8a\x08", 2);
        le(out, quint64(v), 8);
    }
    return out;
}

// MARK, the items, TUPLE.
inline QByteArray tupleOf(const QList<qint64>& items) {
    QByteArray out("(");
    for (qint64 v : items) out += intOp(v);
    return out + "t";
}

// A tensor as torch.save pickles it: torch._utils._rebuild_tensor_v2 over the
// storage `key` of `elements` elements of `type` (float32 unless said), with the
// given sizes, strides and offset.
inline QByteArray tensorPickle(const QByteArray& key, qint64 elements, const QList<qint64>& sizes,
                               const QList<qint64>& strides, qint64 offset = 0,
                               const QByteArray& type = "FloatStorage") {
    return QByteArray("ctorch._utils\n_rebuild_tensor_v2\n(") + "(" + text4("storage") + "ctorch\n" + type + "\n" +
           text4(key) + text4("cpu") + intOp(elements) + "tQ" + intOp(offset) + tupleOf(sizes) + tupleOf(strides) +
           "\x89" + "ccollections\nOrderedDict\n)R" + "tR";
}

// One named tensor of a hand-made state_dict: its storage holds `elements` zeros.
struct TensorSpec {
    QByteArray name;
    qint64 elements;
    QList<qint64> sizes, strides;
};

// torch.save(dict_of_tensors) laid out by hand: data.pkl, version, one storage each.
inline QByteArray stateDictArchive(const QList<TensorSpec>& tensors, const QList<ZipEntry>& extra = {}) {
    QByteArray pickle("\x80\x02}(", 4);
    QList<ZipEntry> entries;
    for (int i = 0; i < tensors.size(); ++i) {
        const QByteArray key = QByteArray::number(i);
        pickle += text4(tensors[i].name) + tensorPickle(key, tensors[i].elements, tensors[i].sizes, tensors[i].strides);
        entries.append(ZipEntry{"archive/data/" + key, QByteArray(int(tensors[i].elements * 4), '\0'), false});
    }
    pickle += "u.";
    entries.prepend(ZipEntry{"archive/version", "3\n", false});
    entries.prepend(ZipEntry{"archive/data.pkl", pickle, false});
    return makeZipOf(entries + extra);
}

// The body of a hostile pickle (no PROTO, no STOP): one value on the stack.
inline QByteArray hostileValue(const QString& kind) {
    if (kind == "self list") return QByteArray("]q\x00h\x00" "a", 6);  // "\x00" "a": not the escape \x00a
    if (kind == "self dict") return QByteArray("}q\x00", 3) + text4("a") + QByteArray("h\x00s", 3);
    if (kind == "nested tuples")  // (((...),),): 100,000 TUPLE1
        return QByteArray(")") + QByteArray(100000, '\x85');
    if (kind == "nested lists")  // 200,000 lists, each APPENDS the previous one, fetched from the memo: no MARK nesting
        return QByteArray("]q\x00" "0", 4) + QByteArray("](h\x00" "eq\x00" "0", 8).repeated(200000) + QByteArray("h\x00", 2);
    if (kind == "nested marks")  // [[[...]]]: a million lists by APPENDS, a MARK open for every level
        return QByteArray("]") + QByteArray("(]").repeated(1000000) + QByteArray(1000000, 'e');
    if (kind == "shared")  // t = (); 64 times t = (t, t): 2^64 leaves through the memo
        return QByteArray(")q\x00", 3) + QByteArray("0h\x00h\x00\x86q\x00", 8).repeated(64);
    if (kind == "many values")  // one list pushed again 2,200,000 times (DUP)
        return QByteArray("]") + QByteArray(2200000, '2');
    return {};
}

// A pickle whose root is the hostile value, or a checkpoint's dict holding it as its config.
inline QByteArray hostilePickle(const QString& kind, bool insideCheckpoint) {
    const QByteArray value = hostileValue(kind);
    if (!insideCheckpoint) return QByteArray("\x80\x02", 2) + value + ".";
    return QByteArray("\x80\x02}(", 4) + text4("format") + text4("chargpt-checkpoint") + text4("version") + "K\x01" +
           text4("config") + value + "u.";
}

// Milliseconds `f` takes.
template <typename F>
qint64 millisecondsOf(F&& f) {
    QElapsedTimer timer;
    timer.start();
    f();
    return timer.elapsed();
}

}  // namespace checkpoint_fixtures
