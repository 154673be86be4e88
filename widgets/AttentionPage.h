// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include <optional>

#include "widgets/AttentionData.h"
#include "widgets/StudioValues.h"

class AttentionGrid;
class AttentionOverview;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

// The Attention tab: a probe text, a layer, that layer's heads in a grid (sort,
// enlarge on click, export), and all layers x heads at a glance, of the model
// at the step the window's timeline chose (docs/ARCHITECTURE.md, "One
// timeline"). It only shows values; whoever owns the model computes them.
class AttentionPage : public QWidget {
    Q_OBJECT

public:
    explicit AttentionPage(QWidget* parent = nullptr);

    QString probeText() const;
    void setProbeText(const QString& text);  // emits probeChanged
    // The probe's attention in the model at `step`, the step the window's
    // timeline chose: shown at once. `milliseconds`: how long the computation took.
    void showAttention(const AttentionProbe& probe, qint64 step, double milliseconds);
    void showProblem(const QString& message);
    // Forgets what is shown (a new model).
    void clear();

    int layer() const;
    void setLayer(int layer);
    const ModelAttention& shownAttention() const { return shown_; }
    // The step of the attention shown; none before a result.
    std::optional<qint64> shownStep() const { return shownStep_; }

    AttentionGrid* grid() const { return grid_; }
    AttentionOverview* overview() const { return overview_; }
    QSpinBox* layerSpin() const { return layerSpin_; }
    QPlainTextEdit* probeEdit() const { return probeEdit_; }

signals:
    void probeChanged(const QString& text);  // after typing pauses
    void refreshRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void show(const ModelAttention& attention, qint64 step);
    // Layer `layer` of what is shown in the grid, with each head's change since step A.
    void showLayer(int layer);
    void noteResult(const AttentionProbe& probe, qint64 step, double milliseconds);

    QLabel* probeLabel_ = nullptr;
    QPlainTextEdit* probeEdit_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QSpinBox* layerSpin_ = nullptr;
    QPushButton* refreshButton_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    AttentionGrid* grid_ = nullptr;
    AttentionOverview* overview_ = nullptr;
    QTimer probeTimer_;

    ModelAttention shown_;
    std::optional<qint64> shownStep_;
    QVector<QVector<double>> changes_;  // AttentionProbe::changes of what is shown
    std::optional<qint64> comparedStep_;  // step A of changes_; none when nothing is compared
    // What the status line says about the last result, kept as values so a
    // change of language rewrites it.
    struct Status {
        bool valid = false;
        qint64 step = 0;
        int characters = 0;
        double milliseconds = 0.0;
        QStringList unknownCharacters;
        int croppedCharacters = 0;
    } status_;
    QString problem_;
    void updateStatus();
};
