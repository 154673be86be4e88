// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The architecture ladder in the window: one chart of each rung's best
// validation loss beside the uniform, unigram and bigram floors (the rung
// in training as a hollow marker at its current loss), a sentence saying
// what the numbers show (LadderText.h), and a table of the rungs. Fed plain
// values (LadderData.h); its button asks for the ladder to train. Until a
// ladder trains in the window it shows one the run library keeps
// (LadderHistory.h): the newest, or one picked from a list, with a line
// saying which it is; their floors are asked for (floorsWanted) and arrive
// later (setRecordedFloors), or a line says why there are none. The n-gram
// floors (n = 2 to 5) of the ladder's text, as the Training tab draws them,
// are asked for (ngramFloorsWanted) once its text is known to be the one it
// trained on, and drawn as dotted lines when they arrive (setNgramFloors).

#include <QHash>
#include <QSet>
#include <QVector>
#include <QWidget>

#include "widgets/LadderData.h"
#include "widgets/LadderHistory.h"

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

class LadderView : public QWidget {
    Q_OBJECT

public:
    explicit LadderView(QWidget* parent = nullptr);

    // A new ladder trains: the floors of its validation text, no rungs yet,
    // and the corpus (a source, "builtin:..." or a path; empty: unknown) and
    // split it trains on. It stays shown, whatever the library holds, until
    // another is picked.
    void start(const LadderFloors& floors, const QString& corpus = QString(), qint64 sequenceLen = 0,
               double valFraction = 0.0);
    // Whether a ladder trains now: the list of earlier ones waits until it ends.
    void setLadderTraining(bool on);
    // The ladders the run library holds, newest first (laddersOf). Shown:
    // the one trained in the window when there is one, else the ladder shown
    // before if it is still there, else the newest. `unreadable`: why the
    // library could not be read (a sentence, shown plain), empty when it was.
    void setHistory(const QVector<LadderRecord>& ladders, const QString& unreadable = QString());
    // The floors of the ladders whose LadderRecord::floorsKey() is `key`, or
    // why there are none (`why` not empty: a sentence, shown plain).
    void setRecordedFloors(const QString& key, const LadderFloors& floors, const QString& why);
    // The validation losses of the n-gram models of `corpus` split so, n = 1,
    // 2, ... (NgramFloorsMeasure's answer; empty: none), drawn when that is
    // the text of the ladder shown.
    void setNgramFloors(const QString& corpus, qint64 sequenceLen, double valFraction,
                        const QVector<double>& nats);
    // Rung `rung.number` as it is now (added, or replacing what it was).
    void setRung(const LadderRungData& rung);
    // Whether the button may ask for a ladder (not while anything trains).
    void setStartEnabled(bool on);
    void retranslate();

    const LadderFloors& floors() const { return floors_; }
    const QVector<LadderRungData>& rungs() const { return rungs_; }
    QCustomPlot* chart() const { return plot_; }
    QTableWidget* table() const { return table_; }
    QPushButton* startButton() const { return startButton_; }
    QComboBox* historyBox() const { return historyBox_; }
    const QVector<LadderRecord>& history() const { return history_; }
    // The library's ladder shown (an index of history()), -1 for none or the
    // one training in the window before the library lists it.
    int shownRecord() const { return shown_; }
    // The line that says which ladder is shown, and the one about its floors.
    QString heading() const;
    QString floorsNote() const;
    QString lesson() const;
    // The finished rungs' points (x: rung number, y: best loss) and the
    // rung in training's (its current loss), as drawn.
    QVector<QPointF> bestPoints() const;
    QVector<QPointF> livePoints() const;
    // The floors' heights as drawn, uniform, unigram, bigram (NaN: not drawn).
    QVector<double> floorLines() const;
    // The n-gram floors' heights as drawn, n = 2 to 5 (NaN: not drawn).
    QVector<double> ngramLines() const;

signals:
    void startRequested();
    // The floors of `ladder` are wanted (once per floorsKey until they arrive).
    void floorsWanted(const LadderRecord& ladder);
    // The n-gram floors of `corpus` split so are wanted (once until they arrive).
    void ngramFloorsWanted(const QString& corpus, qint64 sequenceLen, double valFraction);

protected:
    void changeEvent(QEvent* event) override;

private:
    void redraw();
    void fillTable();
    void showRecord(int index);
    void fillHistoryBox();
    void updateHeading();
    // The n-gram floors of this text for the ladder shown (none: empty corpus).
    void showNgramFloorsOf(const QString& corpus, qint64 sequenceLen, double valFraction);

    // Floors of a recorded ladder as they arrived, by LadderRecord::floorsKey.
    struct RecordedFloors {
        LadderFloors floors;
        QString why;
    };

    LadderFloors floors_;
    QVector<LadderRungData> rungs_;  // by number
    QVector<LadderRecord> history_;
    QString unreadable_;
    int shown_ = -1;
    bool trainedHere_ = false;  // the ladder shown trained in the window
    bool training_ = false;  // a ladder trains now
    QHash<QString, RecordedFloors> recordedFloors_;
    QSet<QString> floorsAsked_;
    QCustomPlot* plot_ = nullptr;
    QCPGraph* best_ = nullptr;
    QCPGraph* live_ = nullptr;
    QCPItemStraightLine* floorLine_[3] = {};
    QCPItemText* floorLabel_[3] = {};
    static constexpr int kNgramLines = 4;  // n = 2 to 5
    QCPItemStraightLine* ngramLine_[kNgramLines] = {};
    QCPItemText* ngramLabel_[kNgramLines] = {};
    QString ngramKey_;                             // the text of the ladder shown, as ngramKey(); empty: none
    QVector<double> ngramNats_;                    // its floors, n = 1, 2, ...; empty: none (yet)
    QHash<QString, QVector<double>> ngramFloors_;  // by ngramKey
    QSet<QString> ngramAsked_;
    QLabel* intro_ = nullptr;
    QLabel* lesson_ = nullptr;
    QLabel* heading_ = nullptr;
    QLabel* historyLabel_ = nullptr;
    QComboBox* historyBox_ = nullptr;
    QLabel* floorsNote_ = nullptr;
    QPushButton* startButton_ = nullptr;
    QTableWidget* table_ = nullptr;
};
