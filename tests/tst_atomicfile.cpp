// SPDX-License-Identifier: GPL-3.0-or-later
// The one way files are saved (checkpoints, configurations): only a regular
// file or nothing is ever replaced; a device, a named pipe, a socket or a
// folder is refused before anything is written; a symbolic link is written
// through to its file; a hard-linked file is refused; the old file's mode
// (and owner, as root) is kept; the temporary file never lands anywhere else
// and never stays behind. Every node a test refuses is made in a temporary
// folder: no system file is ever a target.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "TestProgram.h"

#include <string>

#include "model/io/AtomicFile.h"
#include "model/runtime/Error.h"

namespace tst_atomicfile {

using chargpt::checkSaveTarget;
using chargpt::Error;
using chargpt::writeFileAtomically;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

std::string enc(const QString& path) { return QFile::encodeName(path).toStdString(); }

struct stat lstatOf(const QString& path) {
    struct stat info {};
    ::lstat(enc(path).c_str(), &info);
    return info;
}

// Everything in `folder` a save could have left: its temporary files.
QStringList temporaries(const QString& folder) {
    return QDir(folder).entryList({"*.tmp-*"}, QDir::Files | QDir::Hidden | QDir::System);
}

// The message of the Error `f` throws; empty (and `threw` false) when it does not.
template <typename F>
QString errorOf(F f, bool* threw) {
    *threw = false;
    try {
        f();
    } catch (const Error& e) {
        *threw = true;
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

private slots:
    void newFile();
    void keepsModeAndOwner();
    void refusesWhatIsNotARegularFile_data();
    void refusesWhatIsNotARegularFile();
    void writesThroughSymbolicLinks();
    void refusesBrokenLinks();
    void refusesHardLinkedFiles();
    void leavesOtherNamesAlone();
    void checkFindsUnusableTargets_data();
    void checkFindsUnusableTargets();
    void checkLeavesNothing();
};

void TestAtomicFile::newFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("new.pt");
    writeFileAtomically(enc(path), "first");
    QCOMPARE(readAll(path), QByteArray("first"));
    QCOMPARE(int(lstatOf(path).st_mode & 07777), 0644);
    writeFileAtomically(enc(path), "second");
    QCOMPARE(readAll(path), QByteArray("second"));
    QVERIFY(temporaries(dir.path()).isEmpty());
}

void TestAtomicFile::keepsModeAndOwner() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("private.pt");
    QVERIFY(writeFile(path, "old"));
    QCOMPARE(::chmod(enc(path).c_str(), 0600), 0);
    writeFileAtomically(enc(path), "new");
    QCOMPARE(readAll(path), QByteArray("new"));
    QCOMPARE(int(lstatOf(path).st_mode & 07777), 0600);

    QCOMPARE(::chmod(enc(path).c_str(), 0640), 0);
    writeFileAtomically(enc(path), "newer");
    QCOMPARE(int(lstatOf(path).st_mode & 07777), 0640);

    // Root may give the new file the old one's owner; anyone else keeps their own.
    const uid_t owner = ::geteuid() == 0 ? 4321 : ::geteuid();
    const gid_t group = ::geteuid() == 0 ? 4321 : ::getegid();
    QCOMPARE(::chown(enc(path).c_str(), owner, group), 0);
    writeFileAtomically(enc(path), "newest");
    QCOMPARE(lstatOf(path).st_uid, owner);
    QCOMPARE(lstatOf(path).st_gid, group);
    QCOMPARE(int(lstatOf(path).st_mode & 07777), 0640);
    QCOMPARE(readAll(path), QByteArray("newest"));
    QVERIFY(temporaries(dir.path()).isEmpty());
}

void TestAtomicFile::refusesWhatIsNotARegularFile_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("says");
    QTest::newRow("named pipe") << "fifo"
                                << "it is a named pipe \\(FIFO\\); only a regular file is replaced";
    QTest::newRow("device") << "device" << "it is a device; only a regular file is replaced";
    QTest::newRow("socket") << "socket" << "it is a socket; only a regular file is replaced";
    QTest::newRow("folder") << "folder" << "it is a folder; only a regular file is replaced";
    QTest::newRow("link to a named pipe")
        << "link-to-fifo" << "it is a named pipe \\(FIFO\\) \\(through the symbolic link, .*\\)";
}

void TestAtomicFile::refusesWhatIsNotARegularFile() {
    QFETCH(QString, kind);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString path = dir.filePath("target");
    const std::string node = enc(path);
    if (kind == "fifo" || kind == "link-to-fifo") {
        QCOMPARE(::mkfifo(node.c_str(), 0644), 0);
    } else if (kind == "device") {
        // The null device's numbers, as a node of our own (root only): /dev/null itself is never a target.
        if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            QSKIP("making a device node needs root");
    } else if (kind == "socket") {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(fd >= 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        QVERIFY(node.size() < sizeof address.sun_path);
        std::copy(node.begin(), node.end(), address.sun_path);
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        ::close(fd);
    } else if (kind == "folder") {
        QVERIFY(QDir().mkpath(path));
    }
    if (kind == "link-to-fifo") {
        path = dir.filePath("link");
        QCOMPARE(::symlink("target", enc(path).c_str()), 0);
    }
    const struct stat before = lstatOf(dir.filePath("target"));
    bool threw = false;
    for (int round = 0; round < 2; ++round) {  // the save, then the check before a save
        const QString m = round == 0 ? errorOf([&] { writeFileAtomically(enc(path), "bytes"); }, &threw)
                                     : errorOf([&] { checkSaveTarget(enc(path)); }, &threw);
        QVERIFY2(threw, "accepted");
        QVERIFY2(m.startsWith("cannot save to " + path + ": "), qPrintable(m));
        QVERIFY2(m.contains(QRegularExpression(says)), qPrintable(m));
        QVERIFY2(m.contains("nothing was written"), qPrintable(m));
    }
    const struct stat after = lstatOf(dir.filePath("target"));
    QCOMPARE(after.st_mode, before.st_mode);
    QCOMPARE(after.st_ino, before.st_ino);
    QCOMPARE(after.st_rdev, before.st_rdev);
    if (kind == "link-to-fifo") QVERIFY(S_ISLNK(lstatOf(path).st_mode));
    QVERIFY(temporaries(dir.path()).isEmpty());
}

void TestAtomicFile::writesThroughSymbolicLinks() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir().mkpath(dir.filePath("models")));
    QVERIFY(QDir().mkpath(dir.filePath("links")));
    const QString real = dir.filePath("models/real.pt");
    QVERIFY(writeFile(real, "old"));
    QCOMPARE(::chmod(enc(real).c_str(), 0600), 0);
    // A chain of two links, the first relative to its own folder.
    const QString middle = dir.filePath("models/middle.pt"), link = dir.filePath("links/model.pt");
    QCOMPARE(::symlink("real.pt", enc(middle).c_str()), 0);
    QCOMPARE(::symlink("../models/middle.pt", enc(link).c_str()), 0);
    writeFileAtomically(enc(link), "new");
    QVERIFY(S_ISLNK(lstatOf(link).st_mode));
    QVERIFY(S_ISLNK(lstatOf(middle).st_mode));
    QCOMPARE(QFile::symLinkTarget(link), middle);
    QCOMPARE(readAll(real), QByteArray("new"));
    QCOMPARE(readAll(link), QByteArray("new"));
    QCOMPARE(int(lstatOf(real).st_mode & 07777), 0600);
    // The temporary file was made beside the real file, and is gone.
    QVERIFY(temporaries(dir.filePath("models")).isEmpty());
    QVERIFY(temporaries(dir.filePath("links")).isEmpty());
}

void TestAtomicFile::refusesBrokenLinks() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString dangling = dir.filePath("dangling.pt"), loop = dir.filePath("loop.pt");
    QCOMPARE(::symlink("nowhere.pt", enc(dangling).c_str()), 0);
    QCOMPARE(::symlink("loop.pt", enc(loop).c_str()), 0);
    bool threw = false;
    QString m = errorOf([&] { writeFileAtomically(enc(dangling), "bytes"); }, &threw);
    QVERIFY(threw);
    QVERIFY2(m.contains("it is a symbolic link to something that does not exist; nothing was written"), qPrintable(m));
    m = errorOf([&] { writeFileAtomically(enc(loop), "bytes"); }, &threw);
    QVERIFY(threw);
    QVERIFY2(m.contains("it is a loop of symbolic links; nothing was written"), qPrintable(m));
    QVERIFY(S_ISLNK(lstatOf(dangling).st_mode));
    QVERIFY(S_ISLNK(lstatOf(loop).st_mode));
    QVERIFY(!QFileInfo::exists(dir.filePath("nowhere.pt")));
    QVERIFY(temporaries(dir.path()).isEmpty());
}

void TestAtomicFile::refusesHardLinkedFiles() {
    // Replacing one name would leave the other with the old bytes; writing in
    // place could leave both half-written. Both names keep the old file.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString a = dir.filePath("a.pt"), b = dir.filePath("b.pt");
    QVERIFY(writeFile(a, "shared"));
    QCOMPARE(::link(enc(a).c_str(), enc(b).c_str()), 0);
    bool threw = false;
    const QString m = errorOf([&] { writeFileAtomically(enc(a), "new"); }, &threw);
    QVERIFY(threw);
    QVERIFY2(m.contains("it has 2 hard links") && m.contains("nothing was written"), qPrintable(m));
    QCOMPARE(int(lstatOf(a).st_nlink), 2);
    QCOMPARE(lstatOf(a).st_ino, lstatOf(b).st_ino);
    QCOMPARE(readAll(b), QByteArray("shared"));
    QVERIFY(temporaries(dir.path()).isEmpty());
    // Once the other name is gone, the save goes through.
    QVERIFY(QFile::remove(b));
    writeFileAtomically(enc(a), "new");
    QCOMPARE(readAll(a), QByteArray("new"));
}

void TestAtomicFile::leavesOtherNamesAlone() {
    // No fixed temporary name: "OUT.tmp" (a file, or a link to another file) is someone else's.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath("config.json"), victim = dir.filePath("victim.txt");
    QVERIFY(writeFile(victim, "keep"));
    QCOMPARE(::symlink("victim.txt", enc(out + ".tmp").c_str()), 0);
    QVERIFY(writeFile(dir.filePath("other.json.tmp"), "unrelated"));
    writeFileAtomically(enc(out), "{}");
    writeFileAtomically(enc(dir.filePath("other.json")), "{}");
    QCOMPARE(readAll(victim), QByteArray("keep"));
    QVERIFY(S_ISLNK(lstatOf(out + ".tmp").st_mode));
    QCOMPARE(readAll(dir.filePath("other.json.tmp")), QByteArray("unrelated"));
    QCOMPARE(readAll(out), QByteArray("{}"));
}

void TestAtomicFile::checkFindsUnusableTargets_data() {
    QTest::addColumn<QString>("path");  // @ is a temporary folder
    QTest::addColumn<quint64>("expectedBytes");
    QTest::addColumn<QString>("says");
    QTest::newRow("missing folder") << "@/missing/model.pt" << quint64(0)
                                    << "the folder .*missing does not exist";
    QTest::newRow("parent is a file") << "@/file.txt/model.pt" << quint64(0) << "Not a directory";
    QTest::newRow("a folder") << "@" << quint64(0) << "it is a folder";
    QTest::newRow("procfs") << "/proc/chargpt-test.pt" << quint64(0)
                            << "cannot create a file in /proc: No such file or directory";
    // No disk has 4 EiB free: found before any work, not after it.
    QTest::newRow("full disk") << "@/model.pt" << (quint64(1) << 62) << "the disk holding .* is full";
}

void TestAtomicFile::checkFindsUnusableTargets() {
    QFETCH(QString, path);
    QFETCH(quint64, expectedBytes);
    QFETCH(QString, says);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(writeFile(dir.filePath("file.txt"), "text"));
    path.replace('@', dir.path());
    bool threw = false;
    const QString m = errorOf([&] { checkSaveTarget(enc(path), expectedBytes); }, &threw);
    QVERIFY2(threw, "accepted");
    QVERIFY2(m.startsWith("cannot save to " + path + ": "), qPrintable(m));
    QVERIFY2(m.contains(QRegularExpression(says)), qPrintable(m));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
             QStringList{"file.txt"});
}

void TestAtomicFile::checkLeavesNothing() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fresh = dir.filePath("fresh.pt"), old = dir.filePath("old.pt");
    QVERIFY(writeFile(old, "old"));
    checkSaveTarget(enc(fresh), 1024);
    checkSaveTarget(enc(old), 1024);
    QVERIFY(!QFileInfo::exists(fresh));
    QCOMPARE(readAll(old), QByteArray("old"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
             QStringList{"old.pt"});
}

CHARGPT_TEST_GUILESS_MAIN(TestAtomicFile)
}  // namespace tst_atomicfile
#include "tst_atomicfile.moc"
