// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <optional>

// The view's parts, so that this header brings the whole Surprise view.
#include "widgets/SurpriseData.h"
#include "widgets/SurpriseExport.h"
#include "widgets/SurpriseLegend.h"
#include "widgets/SurpriseTextWidget.h"

class QCPGraph;
class QCPItemStraightLine;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QPushButton;

// The Surprise tab: the start of the validation text beside as much training
// text, and a text of the user's, each character coloured by how surprised
// the model was to see it, with the mean in bits per character, of the model
// at the step the window's timeline chose (docs/ARCHITECTURE.md, "One
// timeline"); the two means of every step shown so far drawn against the
// step; export. It only shows values; whoever owns the model computes them
// (texts() says which).
class SurpriseView : public QWidget {
    Q_OBJECT

public:
    enum Pane { Validation = 0, Training = 1, User = 2, PaneCount = 3 };
    // The user's text is scored up to this many characters.
    static constexpr int kMaxUserCharacters = 2000;

    explicit SurpriseView(QWidget* parent = nullptr);

    // The texts of the two default panes (from the corpus); emits textsChanged.
    void setSamples(const QString& validation, const QString& training);
    QString userText() const;
    void setUserText(const QString& text);  // emits textsChanged
    // What to score, by Pane: validation, training and the user's text (cut to
    // kMaxUserCharacters); an empty one is not scored.
    QStringList texts() const;
    // The model's shape: which parts can be knocked out for a comparison. A
    // chosen part the new shape lacks is dropped (emits textsChanged).
    void setModelShape(int layers, int heads);
    // The part to compare without, chosen by the user ("Compare without"):
    // each text is also scored with it knocked out and coloured by the
    // difference. None by default.
    std::optional<KnockoutPart> comparison() const;
    void setComparison(const std::optional<KnockoutPart>& part);  // emits textsChanged when it changes
    QComboBox* comparisonBox() const { return compareBox_; }

    // The result for texts() (one per pane) from the model at `step`, the step
    // the window's timeline chose: shown at once, and its two means put on the
    // plot of the means (in place of those of the same step).
    void showResult(const QVector<SurpriseText>& texts, qint64 step);
    void showProblem(const QString& message);
    // Forgets what is shown and the means (a new model).
    void clear();

    // What is shown, labelled in the window's language.
    QVector<SurpriseText> shownTexts() const;
    // The step of the model shown; none before a result.
    std::optional<qint64> shownStep() const { return shownStep_; }
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString paneTitle(Pane pane) const;

    SurpriseTextWidget* pane(Pane pane) const { return panes_[pane]; }
    QLabel* paneHeader(Pane pane) const { return headers_[pane]; }
    QPlainTextEdit* userEdit() const { return userEdit_; }
    QLabel* statusLabel() const { return statusLabel_; }
    SurpriseLegend* legend() const { return legend_; }
    // Points on the plot of the means (two per step shown, fewer where a mean is missing).
    int meansPointCount() const;
    QCustomPlot* meansPlot() const { return means_; }

signals:
    // What to score changed: the texts (the user's after typing pauses) or
    // the part to compare without.
    void textsChanged();
    // The view became visible: a result for the newest model may be due.
    void shown();
    // A click on character `index` of a pane's text (its characters in order,
    // known or not): why did the model write it?
    void characterClicked(const QStringList& characters, int index);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void retranslateUi();
    void updateHeaders();
    void updateStatus();
    void updateMeans(qint64 step, const QVector<SurpriseText>& texts);
    void chooseExportFile();
    void fillComparisonBox();
    void updateLegend();

    QLabel* explanation_ = nullptr;
    QLabel* legendLabel_ = nullptr;
    SurpriseLegend* legend_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QLabel* compareLabel_ = nullptr;
    QComboBox* compareBox_ = nullptr;
    QVector<KnockoutPart> parts_;  // the comparison box's items after the first ("nothing")
    QLabel* statusLabel_ = nullptr;
    SurpriseTextWidget* panes_[PaneCount] = {};
    QLabel* headers_[PaneCount] = {};
    QLabel* userLabel_ = nullptr;
    QPlainTextEdit* userEdit_ = nullptr;
    QCustomPlot* means_ = nullptr;
    QCPGraph* validationMeans_ = nullptr;
    QCPGraph* trainingMeans_ = nullptr;
    QCPItemStraightLine* shownLine_ = nullptr;
    QTimer userTimer_;

    QString samples_[2];
    QVector<SurpriseText> shown_;
    std::optional<qint64> shownStep_;
    QString problem_;
};
