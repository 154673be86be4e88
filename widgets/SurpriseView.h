// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QRectF>
#include <QString>
#include <QTimer>
#include <QVector>
#include <QWidget>

#include "SurpriseData.h"

class QCPGraph;
class QCPItemStraightLine;
class QCustomPlot;
class QLabel;
class QPainter;
class QPlainTextEdit;
class QPushButton;
class QSlider;

// One scored text painted character by character, each on the colour of its
// bits; it wraps to its width (a wide character takes the room its font
// gives it, a newline ends the line, a tab takes four spaces) and tells, on
// hover, the model's guesses there.
class SurpriseTextWidget : public QWidget {
    Q_OBJECT

public:
    explicit SurpriseTextWidget(QWidget* parent = nullptr);

    void setText(const SurpriseText& text);
    const SurpriseText& text() const { return text_; }
    // Shown instead of the characters while there are none.
    void setPlaceholder(const QString& placeholder);

    // The index of the character at `point` (widget coordinates), or -1.
    int characterAt(const QPointF& point) const;
    // Where character `index` is painted, or an empty rectangle.
    QRectF characterRect(int index) const;
    QString toolTipAt(const QPointF& point) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The font the characters are painted in: `base`, larger.
    static QFont textFont(const QFont& base);
    // Lays out `text` in lines of `width` pixels with `font`: one rectangle per
    // character, from (0, 0).
    static QVector<QRectF> layoutCharacters(const SurpriseText& text, const QFont& font, double width);
    // Paints `text` laid out from target's top left within its width; returns
    // the height used. `textColor` is for the placeholder and the unknown characters.
    static double paintText(QPainter& painter, const QRectF& target, const SurpriseText& text, const QFont& font,
                            const QColor& textColor, int highlighted = -1);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void relayout();

    SurpriseText text_;
    QString placeholder_;
    QVector<QRectF> cells_;
    int hovered_ = -1;
};

// The colour scale in bits, from 0 (expected) to the surprise of a uniform
// guess over the vocabulary.
class SurpriseLegend : public QWidget {
    Q_OBJECT

public:
    explicit SurpriseLegend(QWidget* parent = nullptr);
    void setMaximum(double bits);
    double maximum() const { return maximum_; }
    QSize sizeHint() const override;
    static void paintLegend(QPainter& painter, const QRectF& target, double maximum, const QFont& font,
                            const QColor& textColor);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    double maximum_ = 8.0;
};

// Writes `texts` to `path` by its suffix: .png or .svg (the texts painted one
// under the other with the colour scale), .html (a page, each character a
// coloured span with its tooltip as title) or .csv (one row per character).
// `title` heads the picture and the page. Needs a QGuiApplication.
bool exportSurprise(const QString& path, const QVector<SurpriseText>& texts, const QString& title, const QFont& font,
                    QString* error = nullptr);

// The Surprise tab: the start of the validation text beside as much training
// text, and a text of the user's, each character coloured by how surprised
// the model was to see it, with the mean in bits per character; a timeline of
// the snapshots seen with the two means drawn per step; export. It only shows
// values; whoever owns the model computes them (texts() says which).
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

    // A new result for texts() (one per pane) from the model at `step`: kept in
    // the timeline (in place of the last one when it is of the same step) and
    // shown when the slider is at its end.
    void addResult(const QVector<SurpriseText>& texts, qint64 step);
    void showProblem(const QString& message);
    // Forgets the timeline (a new model).
    void clear();

    // What is shown, labelled in the window's language.
    QVector<SurpriseText> shownTexts() const;
    qint64 shownStep() const { return shownStep_; }
    int timelineSize() const { return int(frames_.size()); }
    qint64 timelineStep(int index) const { return frames_[index].step; }
    void showTimelineFrame(int index);
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString paneTitle(Pane pane) const;

    SurpriseTextWidget* pane(Pane pane) const { return panes_[pane]; }
    QLabel* paneHeader(Pane pane) const { return headers_[pane]; }
    QPlainTextEdit* userEdit() const { return userEdit_; }
    QSlider* timelineSlider() const { return slider_; }
    QLabel* statusLabel() const { return statusLabel_; }
    SurpriseLegend* legend() const { return legend_; }
    int meansPointCount() const;

signals:
    // The texts to score changed (the user's after typing pauses).
    void textsChanged();
    // The view became visible: a result for the newest model may be due.
    void shown();

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    struct Frame {
        qint64 step = 0;
        QVector<SurpriseText> texts;
    };
    void retranslateUi();
    void showFrame(const Frame& frame);
    void updateHeaders();
    void updateStatus();
    void updateTimelineLabel();
    void updateMeans(qint64 step, const QVector<SurpriseText>& texts);
    void chooseExportFile();

    QLabel* explanation_ = nullptr;
    QLabel* legendLabel_ = nullptr;
    SurpriseLegend* legend_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    SurpriseTextWidget* panes_[PaneCount] = {};
    QLabel* headers_[PaneCount] = {};
    QLabel* userLabel_ = nullptr;
    QPlainTextEdit* userEdit_ = nullptr;
    QLabel* timelineLabel_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* frameLabel_ = nullptr;
    QCustomPlot* means_ = nullptr;
    QCPGraph* validationMeans_ = nullptr;
    QCPGraph* trainingMeans_ = nullptr;
    QCPItemStraightLine* shownLine_ = nullptr;
    QTimer userTimer_;

    QString samples_[2];
    QVector<Frame> frames_;
    QVector<SurpriseText> shown_;
    qint64 shownStep_ = -1;
    QString problem_;
};
