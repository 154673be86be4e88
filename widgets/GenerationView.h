// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaType>
#include <QTextEdit>
#include <QVector>
#include <QWidget>

#include "widgets/AttentionData.h"
#include "widgets/StudioValues.h"

class AttentionHeatmap;
class LogitLensView;
class QTabWidget;
class QCPBars;
class QCPItemText;
class QCustomPlot;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

// Prompt, sampling settings and the generated text. Generate streams characters
// (appendSamples) until Stop; Step asks for one character at a time and shows
// why it was picked: the top candidates and the new character's attention row
// in each head of a chosen layer. The view only emits requests; whoever owns
// the sampler answers them.
class GenerationView : public QWidget {
    Q_OBJECT

public:
    explicit GenerationView(QWidget* parent = nullptr);

    GenerationOptions options() const;
    void setOptions(const GenerationOptions& options);

    // Clears the output and shows the prompt there (dimmed) before new characters;
    // of a prompt over 4,000 characters, "…" and its last 4,000.
    void beginOutput(const QString& prompt);
    // One step of the samples: the new character of each sample in
    // `samples` (numbers from 1, as shown; `characters` in the same order).
    // Sample 1 goes to the output, samples 2 and on below it; a number
    // without a sample shown is ignored.
    void appendSamples(const QVector<int>& samples, const QStringList& characters);
    // The text sample `sample` (2 and on) generated so far, without the
    // prompt shown before it; empty if none.
    QString otherSampleText(int sample) const;
    bool otherSamplesShown() const;
    QString outputText() const;     // prompt (as shown) and generated characters
    QString generatedText() const;  // generated characters only
    // Code-point positions in the prompt that the model does not know.
    void setUnknownCharacters(const QVector<int>& positions);
    QVector<int> unknownCharacters() const { return unknownPositions_; }
    // Marks the spans of the generated text found verbatim in the training
    // text (a background and an underline; a tooltip says so) and shows the
    // share of copied characters below the output. beginOutput clears them.
    void showCopies(const CopiedSpans& copies);
    const CopiedSpans& copies() const { return copies_; }
    // The line below the output ("copied: ..."), empty when hidden.
    QString copiesLine() const;
    // The marked parts of the output, as selections of its document.
    QList<QTextEdit::ExtraSelection> copyMarks() const;
    // The tooltip of the output at a point of its viewport: about a copied
    // span there, else empty.
    QString outputToolTipAt(const QPoint& viewportPosition) const;
    // The generated character at a point of the output's viewport, counted
    // from 0 in generatedText()'s characters; -1 over the prompt or nothing.
    int generatedIndexAt(const QPoint& viewportPosition) const;
    QPlainTextEdit* outputEdit() const { return outputEdit_; }

    // The likeliest candidates of the last step (chars and probabilities in the
    // same order, likeliest first) and the index of the one picked, if it is one.
    void showCandidates(const QStringList& characters, const QVector<double>& probabilities,
                        std::optional<int> picked);
    // One 1 x T matrix per head: the new character's attention over the context.
    void showAttentionRows(const QVector<AttentionMatrix>& rows);
    // The logit lens of the last step (its last column predicts the new character).
    void showLens(const LogitLens& lens);
    LogitLensView* lensView() const { return lensView_; }
    // The step panel's pages: the attention of the new character, the lens.
    QTabWidget* stepTabs() const { return stepTabs_; }
    void setLayerCount(int layers);
    int attentionLayer() const;

    // While running, Generate and Step are disabled and Stop enabled.
    void setRunning(bool running);
    bool isRunning() const { return running_; }
    void showMessage(const QString& message);

    QPushButton* generateButton() const { return generateButton_; }
    QPushButton* stopButton() const { return stopButton_; }
    QPushButton* stepButton() const { return stepButton_; }

signals:
    void generateRequested(const GenerationOptions& options);
    void stopRequested();
    // restart: true for the first step after the prompt or settings changed.
    void stepRequested(const GenerationOptions& options, bool restart);
    void attentionLayerChanged(int layer);
    // A click (not a selection) on a generated character asks why the model
    // wrote it: the output's characters as shown (prompt included, one code
    // point each) and the index of the clicked one among them.
    void characterClicked(const QStringList& characters, int index);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void highlightUnknownCharacters();
    int outputPositionAt(const QPoint& viewportPosition) const;  // the document position under a point
    void askWhyAt(const QPoint& viewportPosition);
    void markCopies();
    void markStepSessionStale();
    void requestGenerate();
    void requestStep();

    QLabel* promptLabel_ = nullptr;
    QPlainTextEdit* promptEdit_ = nullptr;
    QLabel* promptMessage_ = nullptr;
    QLabel* temperatureLabel_ = nullptr;
    QDoubleSpinBox* temperatureSpin_ = nullptr;
    QLabel* topKLabel_ = nullptr;
    QSpinBox* topKSpin_ = nullptr;
    QLabel* topPLabel_ = nullptr;
    QDoubleSpinBox* topPSpin_ = nullptr;
    QLabel* lengthLabel_ = nullptr;
    QSpinBox* lengthSpin_ = nullptr;
    QLabel* seedLabel_ = nullptr;
    QSpinBox* seedSpin_ = nullptr;
    QLabel* samplesLabel_ = nullptr;
    QSpinBox* samplesSpin_ = nullptr;
    // Samples 2 and on of a generation of several (GenerationViewSamples.cpp).
    QWidget* othersPanel_ = nullptr;
    QWidget* stepPanel_ = nullptr;  // what Step shows: the candidates, attention and lens
    QLabel* othersLabel_ = nullptr;
    QWidget* othersHost_ = nullptr;
    QVector<QLabel*> otherHeaders_;
    QVector<QPlainTextEdit*> otherEdits_;
    quint64 othersSeed_ = 0;
    qsizetype otherPromptLength_ = 0;  // UTF-16 units of the prompt shown before each
    void buildOtherSamples();
    void beginOtherSamples(int samples, quint64 seed, const QString& prompt);
    void appendToOutput(const QString& character);  // sample 1's
    void retranslateOtherSamples();
    QPushButton* generateButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QPushButton* stepButton_ = nullptr;
    QLabel* outputLabel_ = nullptr;
    QPlainTextEdit* outputEdit_ = nullptr;
    QLabel* copiesLabel_ = nullptr;
    QLabel* candidatesLabel_ = nullptr;
    QCustomPlot* candidatesPlot_ = nullptr;
    QCPBars* candidateBars_ = nullptr;
    QCPBars* pickedBar_ = nullptr;
    QVector<QCPItemText*> candidateLabels_;
    QLabel* attentionLabel_ = nullptr;
    QTabWidget* stepTabs_ = nullptr;
    LogitLensView* lensView_ = nullptr;
    QSpinBox* layerSpin_ = nullptr;
    QLabel* attentionQueryLabel_ = nullptr;
    QWidget* stripsHost_ = nullptr;
    QGridLayout* stripsLayout_ = nullptr;
    QVector<AttentionHeatmap*> strips_;
    QVector<QLabel*> stripLabels_;

    QVector<int> unknownPositions_;
    QString generated_;
    int generatedStart_ = 0;  // where the generated text begins in the output's document
    CopiedSpans copies_;
    bool running_ = false;
    bool stepSessionActive_ = false;
};
