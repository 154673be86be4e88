// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hand-made zip archives and pickles laid out as torch.save writes them, for
// the tests that feed CharGPT Studio files that are not its checkpoints.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace checkpoint_fixtures {

// --- hand-made archives and pickles, laid out as torch.save writes them ---

inline quint32 crc32(const QByteArray& bytes) {
    quint32 crc = 0xFFFFFFFFu;
    for (const char ch : bytes) {
        crc ^= static_cast<unsigned char>(ch);
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

inline void le(QByteArray& out, quint64 value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.append(char((value >> (8 * i)) & 0xFF));
}

// A zip of stored (uncompressed) entries: local headers, central directory, end record.
inline QByteArray makeZip(const QList<QPair<QByteArray, QByteArray>>& entries) {
    QByteArray zip, directory;
    for (const auto& [name, data] : entries) {
        const quint32 offset = quint32(zip.size());
        const quint32 crc = crc32(data);
        QByteArray common;
        le(common, 0, 2);  // flags
        le(common, 0, 2);  // stored
        le(common, 0, 4);  // time, date
        le(common, crc, 4);
        le(common, quint64(data.size()), 4);
        le(common, quint64(data.size()), 4);
        le(common, quint64(name.size()), 2);
        le(common, 0, 2);  // extra field
        zip.append("PK\x03\x04", 4);
        le(zip, 20, 2);  // version needed
        zip.append(common).append(name).append(data);
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

}  // namespace checkpoint_fixtures
