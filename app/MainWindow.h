// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>
#include <QString>

class CheckpointPanel;
class LanguageManager;
class LossPlot;
class QAction;
class QActionGroup;
class QMenu;
class QSplitter;

// The studio's window: the loss curves of the opened checkpoint, with a side
// panel describing it.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(LanguageManager* languages, QWidget* parent = nullptr);

    // Shows the checkpoint at `path`; on failure tells the user why and keeps
    // what was shown before. Returns whether it opened.
    bool openCheckpoint(const QString& path);

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private slots:
    void chooseCheckpoint();
    void showAbout();

private:
    void createActions();
    void createMenus();
    void retranslateUi();
    void updateWindowTitle();
    void restoreSettings();
    void saveSettings() const;

    LanguageManager* languages_ = nullptr;
    QString checkpointPath_;

    QSplitter* splitter_ = nullptr;
    LossPlot* lossPlot_ = nullptr;
    CheckpointPanel* checkpointPanel_ = nullptr;

    QMenu* fileMenu_ = nullptr;
    QMenu* languageMenu_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QAction* aboutQtAction_ = nullptr;
    QActionGroup* languageGroup_ = nullptr;
};
