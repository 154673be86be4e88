// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QPainter;

// The colour scale in bits, from 0 (expected) to the surprise of a uniform
// guess over the vocabulary; or, for a comparison, the difference in bits
// without a part (surpriseDifferenceColor), -kSurpriseDifferenceScale to +.
class SurpriseLegend : public QWidget {
    Q_OBJECT

public:
    explicit SurpriseLegend(QWidget* parent = nullptr);
    void setMaximum(double bits);
    double maximum() const { return maximum_; }
    void setDifference(bool difference);
    bool isDifference() const { return difference_; }
    QSize sizeHint() const override;
    static void paintLegend(QPainter& painter, const QRectF& target, double maximum, const QFont& font,
                            const QColor& textColor);
    static void paintDifferenceLegend(QPainter& painter, const QRectF& target, const QFont& font,
                                      const QColor& textColor);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    double maximum_ = 8.0;
    bool difference_ = false;
};
