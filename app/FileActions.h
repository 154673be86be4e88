// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The File menu's actions and their dialogs: open a corpus file or folder, a
// checkpoint (or a recent one, or one dropped on the window), import a PyTorch
// state_dict with its vocabulary, export the settings or the model for
// nanoGPT, save. Each dialog ends in a signal with
// what the user chose; whoever owns the model acts on it. Remembers the last
// folders and the recent checkpoints in QSettings.

#include <QObject>
#include <QString>

#include "widgets/StudioValues.h"

class QAction;
class QMenu;
class QWidget;

class FileActions : public QObject {
    Q_OBJECT

public:
    // `window`: the dialogs' parent.
    explicit FileActions(QWidget* window);

    void fillMenu(QMenu* fileMenu, QAction* quit);
    void retranslate();
    // Opening, importing and changing the corpus wait while a run goes.
    void setIdle(bool idle);
    bool idle() const { return idle_; }
    // The loaded corpus the import dialog offers (empty: none).
    void setLoadedCorpusName(const QString& name) { loadedCorpus_ = name; }
    void addRecent(const QString& path);

    // Asks where to save a checkpoint (empty: cancelled), starting in `folder`.
    QString askSavePath(const QString& folder);

    QAction* saveAction() const { return save_; }

public slots:
    void chooseCorpusFile();
    void chooseCorpusFolder();
    void chooseCheckpoint();
    void chooseImport();
    // A model file of another project (nanoGPT's ckpt.pt, a state_dict) to
    // import: its vocabulary is nanoGPT's meta.pkl where sample.py finds it,
    // else the user is asked where to take it from.
    void importFile(const QString& path);
    // A file or folder dropped on the window: a .pt, .pth, .bin or .ckpt file
    // is a model (ours, or one to import), anything else a corpus.
    void openDropped(const QString& path);
    void chooseExportConfig();
    void chooseExportNanoGpt();
    void chooseSavePath();

signals:
    void corpusChosen(const QString& source);
    void checkpointChosen(const QString& path);
    void importChosen(const QString& stateDictPath, VocabularySource from, const QString& source);
    void exportChosen(const QString& path);
    void exportNanoGptChosen(const QString& folder);
    void saveChosen(const QString& path);
    void saveRequested();

private:
    void updateRecentMenu();

    QWidget* window_;
    QString loadedCorpus_;
    bool idle_ = true;
    QMenu* recentMenu_ = nullptr;
    QAction *openCorpusFile_, *openCorpusFolder_, *open_, *import_, *exportConfig_, *exportNanoGpt_, *save_, *saveAs_;
};
