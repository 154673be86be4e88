// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTimer>
#include <QWidget>

#include "widgets/SoftmaxMath.h"

class QCheckBox;
class QCPBars;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTabWidget;
class QTableWidget;

// The seed's two softmax lessons, to play with.
// Mask: a small score matrix, the same with -inf above the diagonal, and the
// softmax of each row: exactly 0 where masked, every row summing to 1.
// Variance: scores Q K^T of unit-normal vectors spread like sqrt(H) unless divided
// by sqrt(H); a softmax row turns one-hot as its input is multiplied up to 1000.
class SoftmaxLab : public QWidget {
    Q_OBJECT

public:
    explicit SoftmaxLab(QWidget* parent = nullptr);

    // Mask lesson.
    void setMaskEnabled(bool enabled);
    void setScores(const softmax_math::Matrix& scores);  // square
    const softmax_math::Matrix& scores() const { return scores_; }
    softmax_math::Matrix shownScores() const;   // masked when the mask is on
    softmax_math::Matrix shownWeights() const;  // softmax of shownScores()
    QString exampleText() const;                // "softmax([1, 2, -inf]) = [...]"

    // Variance lesson.
    void setMultiplier(double multiplier);  // 1 .. 1000
    const softmax_math::ScoreSpread& spread() const { return spread_; }
    std::vector<double> multipliedSoftmax() const;  // softmax(multiplier * x)
    const std::vector<double>& lessonVector() const { return lessonVector_; }  // x

    QTabWidget* tabs() const { return tabs_; }
    // The lab's pages, as a lesson names them ("softmax/mask", "softmax/variance").
    QWidget* maskPage() const { return maskPage_; }
    QWidget* variancePage() const { return variancePage_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildMaskTab();
    QWidget* buildVarianceTab();
    void retranslateUi();
    void drawNewScores();
    void refreshMaskTables();
    void readEditedScore(int row, int column);
    void recomputeSpread();
    void refreshSpreadView();
    void refreshMultiplierView();

    QTabWidget* tabs_ = nullptr;
    QWidget* maskPage_ = nullptr;
    QWidget* variancePage_ = nullptr;

    // Mask tab.
    QLabel* maskIntro_ = nullptr;
    QLabel* sizeLabel_ = nullptr;
    QSpinBox* sizeSpin_ = nullptr;
    QLabel* seedLabel_ = nullptr;
    QSpinBox* seedSpin_ = nullptr;
    QPushButton* drawButton_ = nullptr;
    QCheckBox* maskCheck_ = nullptr;
    QLabel* temperatureLabel_ = nullptr;
    QSlider* temperatureSlider_ = nullptr;
    QLabel* temperatureValue_ = nullptr;
    QLabel* scoresTitle_ = nullptr;
    QLabel* maskedTitle_ = nullptr;
    QLabel* weightsTitle_ = nullptr;
    QTableWidget* scoresTable_ = nullptr;
    QTableWidget* maskedTable_ = nullptr;
    QTableWidget* weightsTable_ = nullptr;
    QLabel* exampleLabel_ = nullptr;
    softmax_math::Matrix scores_;
    bool fillingTables_ = false;

    // Variance tab.
    QLabel* varianceIntro_ = nullptr;
    QLabel* headSizeLabel_ = nullptr;
    QSpinBox* headSizeSpin_ = nullptr;
    QLabel* batchLabel_ = nullptr;
    QSpinBox* batchSpin_ = nullptr;
    QLabel* sequenceLabel_ = nullptr;
    QSpinBox* sequenceSpin_ = nullptr;
    QLabel* spreadLabel_ = nullptr;
    QCustomPlot* histogramPlot_ = nullptr;
    QCPBars* unscaledBars_ = nullptr;
    QCPBars* scaledBars_ = nullptr;
    QLabel* multiplierLabel_ = nullptr;
    QSlider* multiplierSlider_ = nullptr;
    QLabel* multiplierValue_ = nullptr;
    QCustomPlot* softmaxPlot_ = nullptr;
    QCPBars* plainSoftmaxBars_ = nullptr;
    QCPBars* multipliedSoftmaxBars_ = nullptr;
    softmax_math::ScoreSpread spread_;
    std::vector<double> lessonVector_;
    double multiplier_ = 1.0;
    QTimer spreadTimer_;
};
