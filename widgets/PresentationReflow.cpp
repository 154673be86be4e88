// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/PresentationReflow.h"

#include <QBoxLayout>
#include <QPointer>
#include <QSet>
#include <QSplitter>
#include <QWidget>

#include <algorithm>

#include "widgets/PresentationScale.h"

namespace {

QSize least(const QWidget* widget) { return widget->minimumSizeHint().expandedTo(widget->minimumSize()); }
int leastWidth(const QWidget* widget) { return least(widget).width(); }

int leastWidth(QLayout* layout) {
    layout->invalidate();
    return layout->minimumSize().width();
}

// A row of `page` that can wrap: a horizontal box of two or more items held
// by a vertical box.
QBoxLayout* wrappingHolder(QBoxLayout* row) {
    auto* holder = qobject_cast<QBoxLayout*>(row->parent());
    if (!holder || row->direction() != QBoxLayout::LeftToRight || row->count() < 2) return nullptr;
    return holder->direction() == QBoxLayout::TopToBottom ? holder : nullptr;
}

// The height `page` asks at `width`: where it has a height for width, its
// preferred one, which the tab widget holding it asks as its least (a
// stacked layout's height for width is the most its pages prefer).
int heightAt(QWidget* page, int width) {
    return page->hasHeightForWidth() ? page->heightForWidth(width) : least(page).height();
}

}  // namespace

void PresentationReflow::apply(const QList<QWidget*>& pages, QSize room) {
    restore();
    for (QWidget* page : pages) {
        QSet<QObject*> tried;  // changes that made the page too tall, given back
        for (int change = 0; page && change < 12 && leastWidth(page) > room.width(); ++change) {
            // The widest part asking more than the room: a splitter or a row.
            QSplitter* splitter = nullptr;
            QBoxLayout* row = nullptr;
            int widest = room.width();
            for (QSplitter* s : page->findChildren<QSplitter*>()) {
                // Not one with a part too wide on its own: stacked, it would
                // be as wide and taller (that part's rows are wrapped first).
                int widestPart = 0;
                for (int i = 0; i < s->count(); ++i)
                    widestPart = std::max(widestPart, leastWidth(s->widget(i)));
                if (!tried.contains(s) && s->orientation() == Qt::Horizontal && s->count() > 1 &&
                    widestPart <= room.width() && leastWidth(s) > widest) {
                    splitter = s;
                    widest = leastWidth(s);
                }
            }
            for (QBoxLayout* r : page->findChildren<QBoxLayout*>()) {
                if (!tried.contains(r) && wrappingHolder(r) && leastWidth(r) > widest) {
                    splitter = nullptr;
                    row = r;
                    widest = leastWidth(r);
                }
            }
            if (row) {
                // Its last items, as many as it takes, on a row of their own below it.
                QBoxLayout* holder = wrappingHolder(row);
                auto* below = new QHBoxLayout;
                holder->insertLayout(holder->indexOf(row) + 1, below);
                while (row->count() > 1 && leastWidth(row) > room.width())
                    below->insertItem(0, row->takeAt(row->count() - 1));
                undo_.push_back([row = QPointer<QBoxLayout>(row), holder = QPointer<QBoxLayout>(holder),
                                 below = QPointer<QBoxLayout>(below)] {
                    if (!row || !holder || !below) return;
                    while (below->count() > 0) row->addItem(below->takeAt(0));
                    holder->removeItem(below);
                    delete below.data();
                });
            } else if (splitter) {
                const QByteArray state = splitter->saveState();
                splitter->setOrientation(Qt::Vertical);
                undo_.push_back([splitter = QPointer<QSplitter>(splitter), state] {
                    if (!splitter) return;
                    splitter->setOrientation(Qt::Horizontal);
                    splitter->restoreState(state);
                });
            } else {
                break;  // nothing left that could change
            }
            measureAgain(page);
            if (least(page).height() > room.height()) {  // too tall for the screen: given back
                tried.insert(row ? static_cast<QObject*>(row) : splitter);
                undo_.back()();
                undo_.pop_back();
                measureAgain(page);
            }
        }
        // Then pages too tall: a vertical splitter whose parts fit side by
        // side sets them so, the one that saves the most height first.
        for (int change = 0; page && change < 6 && heightAt(page, room.width()) > room.height(); ++change) {
            QSplitter* splitter = nullptr;
            int saves = 0;
            for (QSplitter* s : page->findChildren<QSplitter*>()) {
                if (tried.contains(s) || s->orientation() != Qt::Vertical || !s->isVisibleTo(page)) continue;
                int widths = 0, heights = 0, tallest = 0, parts = 0;
                for (int i = 0; i < s->count(); ++i) {
                    QWidget* part = s->widget(i);
                    if (part->isHidden()) continue;
                    ++parts;
                    widths += leastWidth(part) + s->handleWidth();
                    heights += part->sizeHint().height();
                    tallest = std::max(tallest, part->sizeHint().height());
                }
                if (parts > 1 && leastWidth(page) - leastWidth(s) + widths <= room.width() &&
                    heights - tallest > saves) {
                    splitter = s;
                    saves = heights - tallest;
                }
            }
            if (!splitter) break;
            const QByteArray state = splitter->saveState();
            splitter->setOrientation(Qt::Horizontal);
            undo_.push_back([splitter = QPointer<QSplitter>(splitter), state] {
                if (!splitter) return;
                splitter->setOrientation(Qt::Vertical);
                splitter->restoreState(state);
            });
            measureAgain(page);
            if (leastWidth(page) > room.width()) {  // too wide for the screen: given back
                tried.insert(splitter);
                undo_.back()();
                undo_.pop_back();
                measureAgain(page);
            }
        }
    }
}

void PresentationReflow::restore() {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) (*it)();
    undo_.clear();
}
