// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGroupBox>
#include <QString>
#include <QStringList>

#include "widgets/StudioValues.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;


// Chooses the training text: a built-in corpus, a file or a folder, and shows
// its size, number of characters, vocabulary size and a preview. A text that
// failed to load shows its message in place while the previous one stays.
class CorpusPanel : public QGroupBox {
    Q_OBJECT

public:
    explicit CorpusPanel(QWidget* parent = nullptr);

    void setPythonAvailable(bool available);
    void setLoading(const QString& source);
    void showCorpus(const CorpusSummary& corpus);
    void showError(const QString& source, const QString& message);
    void setChangeable(bool changeable);

    QString errorText() const;
    const CorpusSummary& corpus() const { return corpus_; }
    // A source as the list names it: "Tang poems (唐诗三百首)", a file's name.
    QString displayName(const QString& source) const;

signals:
    // "builtin:..." chosen in the list.
    void builtinRequested(const QString& source);
    void openFileRequested();
    void openFolderRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void refreshValues();

    QComboBox* choice_ = nullptr;
    QPushButton* openFileButton_ = nullptr;
    QPushButton* openFolderButton_ = nullptr;
    QLabel* statsLabel_ = nullptr;
    QLabel* errorLabel_ = nullptr;
    QLabel* previewTitle_ = nullptr;
    QPlainTextEdit* preview_ = nullptr;
    CorpusSummary corpus_;
    QString loadingSource_;
    QString errorSource_, errorMessage_;
    bool pythonAvailable_ = false;
    bool updating_ = false;
};
