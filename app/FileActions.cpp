// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/FileActions.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>

#include "model/io/NanoGptMeta.h"

namespace {

const char* const kLastDirectoryKey = "files/lastCheckpointDirectory";
const char* const kLastCorpusDirectoryKey = "files/lastCorpusDirectory";
const char* const kLastImportDirectoryKey = "files/lastImportDirectory";
const char* const kLastExportDirectoryKey = "files/lastExportDirectory";
const char* const kRecentKey = "files/recentCheckpoints";
constexpr int kMaxRecent = 8;
// Longer than any path Linux opens (PATH_MAX).
constexpr int kMaxRecentPathLength = 4096;

// The suffixes of the text files offered as a corpus, in the dialog and when dropped.
const QStringList& textSuffixes() {
    static const QStringList suffixes = {QStringLiteral("txt"), QStringLiteral("md"), QStringLiteral("py"),
                                         QStringLiteral("c"),   QStringLiteral("h"),  QStringLiteral("cpp")};
    return suffixes;
}

QString textFilter() {
    return QCoreApplication::translate("MainWindow", "Text files (%1);;All files (*)")
        .arg(QStringLiteral("*.") + textSuffixes().join(QStringLiteral(" *.")));
}

QString remembered(const char* key) { return QSettings().value(QLatin1String(key), QDir::homePath()).toString(); }
void remember(const char* key, const QString& folder) { QSettings().setValue(QLatin1String(key), folder); }

// The remembered checkpoints, newest first: at most kMaxRecent, without empty,
// overlong or repeated entries. The settings file may hold anything: a list of
// 200,000 entries kept the window from opening for over 40 s (a menu entry
// each, made again at every change of state).
QStringList recentCheckpoints() {
    const QStringList stored = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    QStringList kept;
    for (const QString& path : stored) {
        if (kept.size() == kMaxRecent) break;
        if (path.isEmpty() || path.size() > kMaxRecentPathLength || kept.contains(path)) continue;
        kept.append(path);
    }
    return kept;
}

}  // namespace

// The texts keep the translation context of the window, whose menu this is.
FileActions::FileActions(QWidget* window) : QObject(window), window_(window) {
    openCorpusFile_ = new QAction(this);
    connect(openCorpusFile_, &QAction::triggered, this, &FileActions::chooseCorpusFile);
    openCorpusFolder_ = new QAction(this);
    connect(openCorpusFolder_, &QAction::triggered, this, &FileActions::chooseCorpusFolder);
    open_ = new QAction(this);
    open_->setShortcut(QKeySequence::Open);
    open_->setIcon(QIcon::fromTheme(QStringLiteral("document-open")));
    connect(open_, &QAction::triggered, this, &FileActions::chooseCheckpoint);
    import_ = new QAction(this);
    connect(import_, &QAction::triggered, this, &FileActions::chooseImport);
    exportConfig_ = new QAction(this);
    connect(exportConfig_, &QAction::triggered, this, &FileActions::chooseExportConfig);
    exportNanoGpt_ = new QAction(this);
    connect(exportNanoGpt_, &QAction::triggered, this, &FileActions::chooseExportNanoGpt);
    save_ = new QAction(this);
    save_->setShortcut(QKeySequence::Save);
    save_->setIcon(QIcon::fromTheme(QStringLiteral("document-save")));
    connect(save_, &QAction::triggered, this, &FileActions::saveRequested);
    saveAs_ = new QAction(this);
    saveAs_->setShortcut(QKeySequence::SaveAs);
    connect(saveAs_, &QAction::triggered, this, &FileActions::chooseSavePath);
}

void FileActions::fillMenu(QMenu* menu, QAction* quit) {
    menu->addAction(openCorpusFile_);
    menu->addAction(openCorpusFolder_);
    menu->addSeparator();
    menu->addAction(open_);
    recentMenu_ = menu->addMenu(QString());
    menu->addAction(save_);
    menu->addAction(saveAs_);
    menu->addSeparator();
    menu->addAction(import_);
    menu->addAction(exportNanoGpt_);
    menu->addAction(exportConfig_);
    menu->addSeparator();
    menu->addAction(quit);
    updateRecentMenu();
}

void FileActions::retranslate() {
    openCorpusFile_->setText(QCoreApplication::translate("MainWindow", "Open &corpus file…"));
    openCorpusFile_->setStatusTip(QCoreApplication::translate("MainWindow", "Train on a UTF-8 text file"));
    openCorpusFolder_->setText(QCoreApplication::translate("MainWindow", "Open corpus &folder…"));
    openCorpusFolder_->setStatusTip(QCoreApplication::translate("MainWindow", "Train on every text file of a folder"));
    open_->setText(QCoreApplication::translate("MainWindow", "&Open checkpoint…"));
    open_->setStatusTip(QCoreApplication::translate(
        "MainWindow",
        "Restore a saved model with its optimizer and loss history, or open a model of nanoGPT, minGPT or the "
        "lecture's code"));
    if (recentMenu_)
        recentMenu_->setTitle(QCoreApplication::translate("MainWindow", "Open &recent"));
    import_->setText(QCoreApplication::translate("MainWindow", "&Import PyTorch model…"));
    import_->setStatusTip(QCoreApplication::translate(
        "MainWindow", "Open a state_dict saved by the book's Python code, with its vocabulary"));
    exportNanoGpt_->setText(QCoreApplication::translate("MainWindow", "Export model for &nanoGPT…"));
    exportNanoGpt_->setStatusTip(QCoreApplication::translate(
        "MainWindow", "Write ckpt.pt and meta.pkl that nanoGPT's sample.py and train.py read"));
    exportConfig_->setText(QCoreApplication::translate("MainWindow", "&Export settings for PyTorch…"));
    exportConfig_->setStatusTip(
        QCoreApplication::translate("MainWindow", "Write the settings as JSON for python/train_ddp.py"));
    save_->setText(QCoreApplication::translate("MainWindow", "&Save checkpoint"));
    saveAs_->setText(QCoreApplication::translate("MainWindow", "Save checkpoint &as…"));
    updateRecentMenu();
}

void FileActions::setIdle(bool idle) {
    idle_ = idle;
    for (QAction* action : {open_, import_, openCorpusFile_, openCorpusFolder_})
        action->setEnabled(idle);
    updateRecentMenu();
}

void FileActions::updateRecentMenu() {
    if (!recentMenu_)
        return;
    recentMenu_->clear();
    const QStringList recent = recentCheckpoints();
    for (const QString& path : recent) {
        // A menu takes '&' for a shortcut mark: "&&" shows one.
        QAction* action = recentMenu_->addAction(QDir::toNativeSeparators(path).replace('&', QLatin1String("&&")));
        connect(action, &QAction::triggered, this, [this, path] { emit checkpointChosen(path); });
    }
    recentMenu_->setEnabled(!recent.isEmpty() && idle_);
}

void FileActions::addRecent(const QString& path) {
    QStringList recent = recentCheckpoints();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), recent);
    updateRecentMenu();
}

void FileActions::chooseCheckpoint() {
    const QString path = QFileDialog::getOpenFileName(
        window_, QCoreApplication::translate("MainWindow", "Open checkpoint"), remembered(kLastDirectoryKey),
        QCoreApplication::translate("MainWindow", "CharGPT checkpoints (*.pt);;All files (*)"));
    if (path.isEmpty())
        return;
    remember(kLastDirectoryKey, QFileInfo(path).absolutePath());
    emit checkpointChosen(path);
}

void FileActions::chooseCorpusFile() {
    const QString path = QFileDialog::getOpenFileName(
        window_, QCoreApplication::translate("MainWindow", "Open corpus file"), remembered(kLastCorpusDirectoryKey),
        textFilter());
    if (path.isEmpty())
        return;
    remember(kLastCorpusDirectoryKey, QFileInfo(path).absolutePath());
    emit corpusChosen(path);
}

void FileActions::chooseCorpusFolder() {
    const QString path = QFileDialog::getExistingDirectory(
        window_, QCoreApplication::translate("MainWindow", "Open corpus folder"), remembered(kLastCorpusDirectoryKey));
    if (path.isEmpty())
        return;
    remember(kLastCorpusDirectoryKey, path);
    emit corpusChosen(path);
}

void FileActions::chooseExportConfig() {
    const QString path = QFileDialog::getSaveFileName(
        window_, QCoreApplication::translate("MainWindow", "Export settings for PyTorch"),
        remembered(kLastDirectoryKey) + QStringLiteral("/config.json"),
        QCoreApplication::translate("MainWindow", "JSON (*.json)"));
    if (!path.isEmpty())
        emit exportChosen(path);
}

QString FileActions::askSavePath(const QString& folder) {
    return QFileDialog::getSaveFileName(window_, QCoreApplication::translate("MainWindow", "Save checkpoint"),
                                        folder + QStringLiteral("/chargpt.pt"),
                                        QCoreApplication::translate("MainWindow", "CharGPT checkpoints (*.pt)"));
}

void FileActions::chooseSavePath() {
    const QString path = askSavePath(remembered(kLastDirectoryKey));
    if (path.isEmpty())
        return;
    remember(kLastDirectoryKey, QFileInfo(path).absolutePath());
    emit saveChosen(path);
}

void FileActions::chooseImport() {
    const QString path = QFileDialog::getOpenFileName(
        window_, QCoreApplication::translate("MainWindow", "Import PyTorch model"), remembered(kLastImportDirectoryKey),
        QCoreApplication::translate("MainWindow", "PyTorch state_dict (*.pt *.pth *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    remember(kLastImportDirectoryKey, QFileInfo(path).absolutePath());
    importFile(path);
}

void FileActions::importFile(const QString& path) {
    // nanoGPT's checkpoint with the meta.pkl of its vocabulary where sample.py
    // would find it: nothing to ask.
    const std::string meta = chargpt::findNanoGptMeta(QFile::encodeName(path).toStdString());
    if (!meta.empty()) {
        emit importChosen(path, VocabularySource::VocabularyFile, QFile::decodeName(meta.c_str()));
        return;
    }

    QMessageBox box(QMessageBox::Question, QCoreApplication::translate("MainWindow", "Vocabulary of the imported model"),
                    QCoreApplication::translate(
                        "MainWindow",
                        "A state_dict holds numbers, not characters. Take the vocabulary from the text the model was "
                        "trained on (<|e|> is 0, its sorted characters follow) or from a JSON vocabulary file."),
                    QMessageBox::NoButton, window_);
    box.setObjectName(QStringLiteral("importVocabularyBox"));
    QPushButton* loaded = nullptr;
    if (!loadedCorpus_.isEmpty())
        loaded = box.addButton(QCoreApplication::translate("MainWindow", "The loaded corpus (%1)").arg(loadedCorpus_),
                               QMessageBox::AcceptRole);
    QPushButton* file = box.addButton(QCoreApplication::translate("MainWindow", "Corpus file…"), QMessageBox::ActionRole);
    QPushButton* folder =
        box.addButton(QCoreApplication::translate("MainWindow", "Corpus folder…"), QMessageBox::ActionRole);
    QPushButton* vocabulary =
        box.addButton(QCoreApplication::translate("MainWindow", "Vocabulary file…"), QMessageBox::ActionRole);
    box.addButton(QMessageBox::Cancel);
    box.exec();
    QAbstractButton* clicked = box.clickedButton();
    const QString here = QFileInfo(path).absolutePath();
    const QString trainedOn = QCoreApplication::translate("MainWindow", "Corpus the model was trained on");
    if (loaded && clicked == loaded) {
        emit importChosen(path, VocabularySource::LoadedCorpus, QString());
    } else if (clicked == file) {
        const QString corpus = QFileDialog::getOpenFileName(
            window_, trainedOn, here, textFilter());
        if (!corpus.isEmpty())
            emit importChosen(path, VocabularySource::CorpusText, corpus);
    } else if (clicked == folder) {
        const QString corpus = QFileDialog::getExistingDirectory(window_, trainedOn, here);
        if (!corpus.isEmpty())
            emit importChosen(path, VocabularySource::CorpusText, corpus);
    } else if (clicked == vocabulary) {
        const QString json = QFileDialog::getOpenFileName(
            window_, QCoreApplication::translate("MainWindow", "Vocabulary file"), here,
            QCoreApplication::translate("MainWindow", "JSON vocabulary (*.json);;All files (*)"));
        if (!json.isEmpty())
            emit importChosen(path, VocabularySource::VocabularyFile, json);
    }
}

void FileActions::openDropped(const QString& path) {
    // PyTorch's own suffixes and nanoGPT's: a model, ours or one to import
    // (TrainingWorker::foreignModelFound); any other file or a folder: a corpus.
    static const QStringList modelSuffixes = {QStringLiteral("pt"), QStringLiteral("pth"), QStringLiteral("bin"),
                                              QStringLiteral("ckpt")};
    const QFileInfo file(path);
    if (!file.isDir() && modelSuffixes.contains(file.suffix().toLower()))
        emit checkpointChosen(path);
    else
        emit corpusChosen(path);
}

void FileActions::chooseExportNanoGpt() {
    const QString folder = QFileDialog::getExistingDirectory(
        window_, QCoreApplication::translate("MainWindow", "Folder for nanoGPT's ckpt.pt and meta.pkl"),
        remembered(kLastExportDirectoryKey));
    if (folder.isEmpty())
        return;
    remember(kLastExportDirectoryKey, folder);
    emit exportNanoGptChosen(folder);
}
