// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QWidget>

#include <optional>

#include "widgets/InsideData.h"

class CharacterNeighbours;
class QLabel;
class QPushButton;
class ValueGrid;

// The characters of one frame of the map drawn as text at their 2-D
// coordinates, coloured by their kind, in fixed axes (`range`), with the
// legend of the kinds; hover a character for its nearest neighbours.
class CharacterMapCanvas : public QWidget {
    Q_OBJECT

public:
    explicit CharacterMapCanvas(QWidget* parent = nullptr);

    // `range` is in the map's coordinates; it stays until the next call.
    void setFrame(const CharacterMapFrame& frame, const QRectF& range);
    const CharacterMapFrame& frame() const { return frame_; }
    const QRectF& range() const { return range_; }

    // Where character `index` is drawn (its centre), in widget coordinates.
    QPointF characterPosition(int index) const;
    // The character nearest `point` within a few pixels, or none.
    std::optional<int> characterAt(const QPointF& point) const;
    QString toolTipText(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Paints `frame` into `target` in axes `range`; `highlighted` is drawn bold.
    static void paintMap(QPainter& painter, const QRectF& target, const CharacterMapFrame& frame,
                         const QRectF& range, const QFont& font, const QColor& textColor,
                         std::optional<int> highlighted = std::nullopt);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    CharacterMapFrame frame_;
    QRectF range_;
    std::optional<int> hovered_;  // the character under the mouse
};

// The characters' map: token embeddings projected to 2-D, animated along the
// snapshots in axes that hold every frame (so the picture does not jump), and
// beside it the position x position similarity of the position embeddings;
// under them a chosen character's nearest characters.
// setCurrentStep chooses the frame.
class CharacterMapView : public QWidget {
    Q_OBJECT

public:
    explicit CharacterMapView(QWidget* parent = nullptr);

    void setMap(const CharacterMap& map);
    const CharacterMap& map() const { return map_; }
    void showProblem(const QString& message);

    // Shows the last frame at or before `step` (the newest when none set).
    void setCurrentStep(qint64 step);
    int currentFrame() const;
    // The axes' range in the map's coordinates: that of every frame, padded.
    QRectF axisRange() const { return canvas_->range(); }

    // .png, .svg (the map beside the similarity) or .csv (one row per frame and character).
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString csv() const;

    CharacterMapCanvas* canvas() const { return canvas_; }
    ValueGrid* positionHeatmap() const { return positions_; }
    CharacterNeighbours* neighbours() const { return neighbours_; }
    QLabel* statusLabel() const { return status_; }
    QPushButton* exportButton() const { return exportButton_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void showFrame();

    CharacterMap map_;
    QRectF range_;
    std::optional<qint64> currentStep_;  // setCurrentStep's; none: the newest frame
    QString problem_;
    QLabel* explanation_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    CharacterMapCanvas* canvas_ = nullptr;
    ValueGrid* positions_ = nullptr;
    CharacterNeighbours* neighbours_ = nullptr;
};
