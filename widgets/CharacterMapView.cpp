// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/CharacterMapView.h"
#include "widgets/CharacterNeighbours.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "widgets/AttentionData.h"  // displayCharacter, percentText
#include "widgets/ValueGrid.h"
#include "widgets/ViewExport.h"
#include "widgets/PlainToolTip.h"

namespace {

constexpr double kHoverRadius = 14.0;

// The plotting area inside `target`: room for the legend above and the axis
// titles below and left.
struct MapLayout {
    QRectF plot;
    double legendHeight = 0.0;
    QFont labelFont;
};

MapLayout mapLayout(const QRectF& target, const QFont& font) {
    MapLayout layout;
    const QFontMetricsF metrics(font);
    layout.legendHeight = metrics.height() + 6.0;
    layout.plot =
        target.adjusted(metrics.height() + 8.0, layout.legendHeight + 4.0, -8.0, -(metrics.height() + 8.0));
    layout.labelFont = font;
    layout.labelFont.setPixelSize(int(std::clamp(layout.plot.height() / 28.0, 11.0, 18.0)));
    return layout;
}

// Where a point of the map is drawn: inside the frame by half a label, so a
// character at the edge of the range is whole.
QPointF toWidget(const QRectF& frame, const QRectF& range, const QPointF& point) {
    const QRectF plot = frame.adjusted(16.0, 16.0, -16.0, -16.0);
    if (range.width() <= 0 || range.height() <= 0) return plot.center();
    const double x = plot.left() + (point.x() - range.left()) / range.width() * plot.width();
    // Larger y upwards, as on paper.
    const double y = plot.bottom() - (point.y() - range.top()) / range.height() * plot.height();
    return QPointF(x, y);
}

}  // namespace

// --- the canvas --------------------------------------------------------------

CharacterMapCanvas::CharacterMapCanvas(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void CharacterMapCanvas::setFrame(const CharacterMapFrame& frame, const QRectF& range) {
    frame_ = frame;
    range_ = range;
    hovered_.reset();
    update();
}

QPointF CharacterMapCanvas::characterPosition(int index) const {
    if (index < 0 || index >= frame_.points.size()) return QPointF();
    return toWidget(mapLayout(QRectF(rect()), font()).plot, range_, frame_.points[index]);
}

std::optional<int> CharacterMapCanvas::characterAt(const QPointF& point) const {
    std::optional<int> best;
    double bestDistance = kHoverRadius * kHoverRadius;
    const QRectF plot = mapLayout(QRectF(rect()), font()).plot;
    const int count = int(std::min(frame_.points.size(), frame_.characters.size()));
    for (int i = 0; i < count; ++i) {
        const QPointF d = toWidget(plot, range_, frame_.points[i]) - point;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

QString CharacterMapCanvas::toolTipText(int index) const {
    if (index < 0 || index >= frame_.characters.size()) return QString();
    const QString character = frame_.characters[index];
    QStringList lines;
    lines << tr("“%1” (%2)").arg(displayCharacter(character), characterKindName(characterKind(character)));
    const QVector<CharacterNeighbour> neighbours =
        index < frame_.neighbours.size() ? frame_.neighbours[index] : QVector<CharacterNeighbour>();
    if (neighbours.isEmpty()) {
        lines << tr("No neighbours measured.");
    } else {
        lines << tr("Nearest by cosine:");
        for (const CharacterNeighbour& n : neighbours)
            lines << QStringLiteral("  “%1”  %2")
                         .arg(displayCharacter(n.character), QLocale().toString(double(n.cosine), 'f', 3));
    }
    return lines.join(QLatin1Char('\n'));
}

// 300 high: the Inside tab asks the most its pages prefer, and a taller map
// held it above what a 720-line projector leaves (it grows with the window).
QSize CharacterMapCanvas::sizeHint() const { return QSize(520, 300); }

QSize CharacterMapCanvas::minimumSizeHint() const { return QSize(200, 160); }

void CharacterMapCanvas::paintMap(QPainter& painter, const QRectF& target, const CharacterMapFrame& frame,
                                  const QRectF& range, const QFont& font, const QColor& textColor,
                                  std::optional<int> highlighted) {
    const MapLayout layout = mapLayout(target, font);
    if (layout.plot.width() <= 10 || layout.plot.height() <= 10) return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetricsF metrics(font);

    // The legend of the kinds, in one line above the plot.
    painter.setFont(font);
    double x = target.left() + 4.0;
    const double legendY = target.top() + 2.0;
    for (CharacterKind kind : allCharacterKinds()) {
        const QString name = characterKindName(kind);
        const double swatch = metrics.height() * 0.7;
        painter.fillRect(QRectF(x, legendY + (metrics.height() - swatch) / 2, swatch, swatch),
                         characterKindColor(kind));
        x += swatch + 4.0;
        painter.setPen(textColor);
        painter.drawText(QPointF(x, legendY + metrics.ascent()), name);
        x += metrics.horizontalAdvance(name) + 12.0;
    }

    // The frame and the axes through 0.
    QColor axisColor = textColor;
    axisColor.setAlpha(90);
    painter.setPen(QPen(axisColor, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(layout.plot);
    if (range.width() > 0 && range.height() > 0) {
        painter.setPen(QPen(axisColor, 1.0, Qt::DashLine));
        if (range.left() < 0 && range.right() > 0) {
            const double zeroX = toWidget(layout.plot, range, QPointF(0, 0)).x();
            painter.drawLine(QPointF(zeroX, layout.plot.top()), QPointF(zeroX, layout.plot.bottom()));
        }
        if (range.top() < 0 && range.bottom() > 0) {
            const double zeroY = toWidget(layout.plot, range, QPointF(0, 0)).y();
            painter.drawLine(QPointF(layout.plot.left(), zeroY), QPointF(layout.plot.right(), zeroY));
        }
    }
    painter.setPen(textColor);
    const QString xTitle =
        std::isfinite(frame.explainedX)
            ? tr("first principal axis (%1 of the variance)").arg(percentText(frame.explainedX))
            : tr("first principal axis");
    const QString yTitle = std::isfinite(frame.explainedY)
                               ? tr("second principal axis (%1)").arg(percentText(frame.explainedY))
                               : tr("second principal axis");
    painter.drawText(
        QRectF(layout.plot.left(), layout.plot.bottom() + 4.0, layout.plot.width(), metrics.height()),
        Qt::AlignHCenter | Qt::AlignTop, xTitle);
    painter.save();
    painter.translate(layout.plot.left() - 4.0, layout.plot.bottom());
    painter.rotate(-90.0);
    painter.drawText(QRectF(0.0, -metrics.height(), layout.plot.height(), metrics.height()),
                     Qt::AlignHCenter | Qt::AlignBottom, yTitle);
    painter.restore();

    // Where each character was at step A: a thin line from there to where it is.
    if (frame.comparedPoints.size() == frame.points.size() && range.width() > 0 && range.height() > 0) {
        QColor trail = textColor;
        trail.setAlpha(110);
        painter.setPen(QPen(trail, 1.0));
        for (qsizetype i = 0; i < frame.points.size(); ++i) {
            const QPointF from = frame.comparedPoints[i], to = frame.points[i];
            if (!std::isfinite(from.x()) || !std::isfinite(from.y()) || !std::isfinite(to.x()) ||
                !std::isfinite(to.y()))
                continue;
            const QPointF a = toWidget(layout.plot, range, from), b = toWidget(layout.plot, range, to);
            painter.drawLine(a, b);
            painter.drawEllipse(a, 1.5, 1.5);
        }
    }

    // The characters, each centred on its point.
    const int count = int(std::min(frame.points.size(), frame.characters.size()));
    QFont labelFont = layout.labelFont;
    QFont boldFont = labelFont;
    boldFont.setBold(true);
    boldFont.setPixelSize(labelFont.pixelSize() + 4);
    painter.setClipRect(layout.plot.adjusted(-2, -2, 2, 2));
    for (int i = 0; i < count; ++i) {
        if (i == highlighted) continue;
        const QPointF p = toWidget(layout.plot, range, frame.points[i]);
        painter.setFont(labelFont);
        painter.setPen(characterKindColor(characterKind(frame.characters[i])));
        painter.drawText(QRectF(p.x() - 20, p.y() - 12, 40, 24), Qt::AlignCenter,
                         displayCharacter(frame.characters[i]));
    }
    if (highlighted && *highlighted >= 0 && *highlighted < count) {
        const QPointF p = toWidget(layout.plot, range, frame.points[*highlighted]);
        painter.setFont(boldFont);
        painter.setPen(characterKindColor(characterKind(frame.characters[*highlighted])));
        painter.drawText(QRectF(p.x() - 20, p.y() - 14, 40, 28), Qt::AlignCenter,
                         displayCharacter(frame.characters[*highlighted]));
    }
    painter.restore();
}

bool CharacterMapCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<int> index = characterAt(QPointF(help->pos()))) {
            const QPoint centre = characterPosition(*index).toPoint();
            QToolTip::showText(help->globalPos(), plainToolTip(toolTipText(*index)), this,
                               QRect(centre - QPoint(int(kHoverRadius), int(kHoverRadius)),
                                     QSize(int(2 * kHoverRadius), int(2 * kHoverRadius))));
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

void CharacterMapCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintMap(painter, QRectF(rect()), frame_, range_, font(), palette().color(QPalette::WindowText),
             hovered_);
}

void CharacterMapCanvas::mouseMoveEvent(QMouseEvent* event) {
    const std::optional<int> index = characterAt(event->position());
    if (index != hovered_) {
        hovered_ = index;
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void CharacterMapCanvas::leaveEvent(QEvent* event) {
    if (hovered_) {
        hovered_.reset();
        update();
    }
    QWidget::leaveEvent(event);
}

// --- the view ------------------------------------------------------------------

CharacterMapView::CharacterMapView(QWidget* parent) : QWidget(parent) {
    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    status_ = new QLabel(this);
    status_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    status_->setWordWrap(true);
    exportButton_ = new QPushButton(this);
    canvas_ = new CharacterMapCanvas(this);
    positions_ = new ValueGrid(this);
    positions_->setMaximumCellSize(16.0);
    neighbours_ = new CharacterNeighbours(this);
    positions_->setToolTipFunction([this](int row, int column) {
        const int frame = currentFrame();
        if (frame < 0 || !map_.frames[frame].hasPositions()) return QString();
        const CharacterMapFrame& f = map_.frames[frame];
        return tr("positions %1 and %2: cosine %3")
            .arg(row)
            .arg(column)
            .arg(QLocale().toString(double(f.positionSimilarity[qsizetype(row) * f.positions + column]), 'f',
                                    3));
    });

    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(exportButton_);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(canvas_);
    splitter->addWidget(positions_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation_);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);
    layout->addWidget(neighbours_);

    connect(exportButton_, &QPushButton::clicked, this, [this] {
        ViewExport::chooseAndExport(
            this, tr("Export the characters' map"), QStringLiteral("character-map.png"),
            [this](const QString& path, QString* error) { return exportTo(path, error); });
    });
    retranslateUi();
}

void CharacterMapView::setMap(const CharacterMap& map) {
    map_ = map;
    problem_.clear();
    // Every frame's points fit, with a margin for the labels' width.
    QRectF bounds = map_.bounds();
    if (!bounds.isNull()) {
        const double padX = std::max(bounds.width() * 0.03, 1e-6),
                     padY = std::max(bounds.height() * 0.03, 1e-6);
        bounds.adjust(-padX, -padY, padX, padY);
    }
    range_ = bounds;
    showFrame();
}

void CharacterMapView::showProblem(const QString& message) {
    problem_ = message;
    showFrame();
}

void CharacterMapView::setCurrentStep(qint64 step) {
    currentStep_ = step;
    showFrame();
}

int CharacterMapView::currentFrame() const {
    if (map_.frames.isEmpty()) return -1;
    return currentStep_ ? map_.frameAt(*currentStep_) : int(map_.frames.size()) - 1;
}

void CharacterMapView::showFrame() {
    const int index = currentFrame();
    const CharacterMapFrame frame = index >= 0 ? map_.frames[index] : CharacterMapFrame();
    canvas_->setFrame(frame, range_);
    neighbours_->setFrame(frame);
    ValueGridData data;
    data.minimum = -1.0;
    data.maximum = 1.0;
    data.scaleTitle = tr("cosine of two positions");
    if (frame.hasPositions()) {
        for (int p = 0; p < frame.positions; ++p) {
            data.rowLabels << QString::number(p);
            data.columnLabels << QString::number(p);
        }
        for (float v : frame.positionSimilarity) data.values << double(v);
    }
    positions_->setData(data);
    exportButton_->setEnabled(index >= 0);
    if (!problem_.isEmpty())
        status_->setText(problem_);
    else if (index < 0)
        status_->setText(tr("Train a model or open a checkpoint to see where it puts each character."));
    else if (frame.comparedStep && frame.comparedPoints.size() == frame.points.size())
        status_->setText(tr("Step %1, %2 characters; each line leads from where the character was at step %3 "
                            "(A) to where it is now.")
                             .arg(frame.step)
                             .arg(frame.characters.size())
                             .arg(*frame.comparedStep));
    else
        status_->setText(tr("Step %1 (%2 of the %3 steps this map has measured), %4 characters.")
                             .arg(frame.step)
                             .arg(index + 1)
                             .arg(map_.frames.size())
                             .arg(frame.characters.size()));
}

QString CharacterMapView::csv() const {
    // One row per frame and character; its neighbours in columns of their own
    // (a space is a character too, so they are not joined into one field).
    static const char* const kinds[] = {"letter", "digit", "punctuation", "cjk", "space", "other"};
    int neighbourColumns = 0;
    for (const CharacterMapFrame& frame : map_.frames)
        for (const QVector<CharacterNeighbour>& list : frame.neighbours)
            neighbourColumns = std::max(neighbourColumns, int(list.size()));
    QString out = QStringLiteral("step,character,kind,x,y,explained_x,explained_y");
    for (int n = 1; n <= neighbourColumns; ++n) out += QStringLiteral(",neighbour%1,cosine%1").arg(n);
    out += QLatin1Char('\n');
    for (const CharacterMapFrame& frame : map_.frames) {
        const int count = int(std::min(frame.points.size(), frame.characters.size()));
        for (int i = 0; i < count; ++i) {
            QStringList row{QString::number(frame.step),
                            ViewExport::csvField(frame.characters[i]),
                            QString::fromLatin1(kinds[int(characterKind(frame.characters[i]))]),
                            ViewExport::csvNumber(frame.points[i].x()),
                            ViewExport::csvNumber(frame.points[i].y()),
                            ViewExport::csvNumber(frame.explainedX),
                            ViewExport::csvNumber(frame.explainedY)};
            const QVector<CharacterNeighbour> neighbours =
                i < frame.neighbours.size() ? frame.neighbours[i] : QVector<CharacterNeighbour>();
            for (int n = 0; n < neighbourColumns; ++n) {
                const bool has = n < neighbours.size();
                row << (has ? ViewExport::csvField(neighbours[n].character) : QString())
                    << (has ? ViewExport::csvNumber(neighbours[n].cosine) : QString());
            }
            out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
        }
    }
    return out;
}

bool CharacterMapView::exportTo(const QString& path, QString* error) const {
    const int index = currentFrame();
    const CharacterMapFrame frame = index >= 0 ? map_.frames[index] : CharacterMapFrame();
    const ValueGridData data = positions_->data();
    const QFont font = this->font();
    const QFontMetrics metrics(font);
    const int margin = 12, line = metrics.height() + 2;
    const QSize mapSize(720, 560);
    const QSize gridSize =
        data.isValid() ? ValueGrid::preferredSize(data, font, std::clamp(480.0 / data.columns(), 3.0, 16.0))
                       : QSize(0, 0);
    const QSize size(mapSize.width() + gridSize.width() + 3 * margin,
                     std::max(mapSize.height(), gridSize.height()) + line + 2 * margin);
    const QString title = tr("The characters' map at step %1").arg(frame.step);
    const QRectF range = range_;
    return ViewExport::write(
        path, index >= 0 ? size : QSize(),
        [&](QPainter& painter, const QRectF& target) {
            QFont bold = font;
            bold.setBold(true);
            painter.setPen(Qt::black);
            painter.setFont(bold);
            painter.drawText(QPointF(target.left() + margin, target.top() + margin + metrics.ascent()),
                             title);
            const double y = target.top() + margin + line;
            CharacterMapCanvas::paintMap(painter, QRectF(QPointF(target.left() + margin, y), QSizeF(mapSize)),
                                         frame, range, font, Qt::black);
            if (data.isValid())
                ValueGrid::paintGrid(painter,
                                     QRectF(target.left() + 2 * margin + mapSize.width(), y, gridSize.width(),
                                            gridSize.height()),
                                     data, font, Qt::black, 16.0);
        },
        [this] { return csv(); }, error);
}

void CharacterMapView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void CharacterMapView::retranslateUi() {
    explanation_->setText(tr(
        "Where the model puts each character: its embedding (the vector it starts from) projected on the two "
        "directions along which the embeddings differ most. Characters the model treats alike end up close. "
        "Hover a character, or choose one below, for its nearest neighbours. Right: how alike the model's "
        "position vectors are, position against position (does position 10 look like 11?)."));
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(
        tr("Save the map and the similarity as a PNG or SVG picture, or the map as CSV"));
    showFrame();
    canvas_->update();
}
