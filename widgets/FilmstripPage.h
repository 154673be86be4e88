// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

#include "widgets/FilmstripData.h"

class FilmstripView;
class QDoubleSpinBox;
class QEvent;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// The Filmstrip tab: the run on the window's timeline sampled at every step it
// keeps, from one prompt, seed and temperature (the words above the strip),
// the rows coming in one by one as they are sampled; Stop, and Save as HTML
// or text. Whoever makes the strip (app/FilmstripController) hears
// sampleRequested and stopRequested and hands the rows back.
class FilmstripPage : public QWidget {
    Q_OBJECT

public:
    explicit FilmstripPage(QWidget* parent = nullptr);

    // The run whose kept steps a strip would sample; none when nothing on
    // the timeline keeps weights yet.
    void setRun(std::optional<qint64> run);
    FilmstripAsk ask() const;

    // A strip of `steps` steps began: its heading (the run, the prompt as the
    // models read it, the words), no rows yet; `leftOut` names prompt
    // characters the models do not know.
    void begin(const FilmstripSamples& heading, int steps, const QString& leftOut);
    void addRow(const FilmstripRow& row);
    // The strip ended: all its rows came, or Stop (or a newer request) cut it.
    void finish(bool stopped);
    // The strip could not be made (the run library cannot be read, no
    // character of the prompt is known): `message` says why.
    void fail(const QString& message);
    bool isSampling() const { return sampling_; }

    FilmstripView* view() const { return view_; }
    QLineEdit* promptEdit() const { return prompt_; }
    QSpinBox* lengthSpin() const { return length_; }
    QSpinBox* seedSpin() const { return seed_; }
    QDoubleSpinBox* temperatureSpin() const { return temperature_; }
    QPushButton* sampleButton() const { return sample_; }
    QPushButton* stopButton() const { return stop_; }
    QPushButton* saveButton() const { return save_; }
    QLabel* statusLabel() const { return status_; }

    // Writes the strip shown to `path` (.html, .htm or .txt) by the project's
    // save rules; false with `error` set when it cannot.
    bool saveTo(const QString& path, QString* error = nullptr) const;
    // The Save dialog's choices: the formats saveTo writes, a web page or text.
    static QString saveFilters();

signals:
    void sampleRequested(const FilmstripAsk& ask);
    void stopRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void updateState();
    QString statusText() const;

    QLabel *promptLabel_ = nullptr, *lengthLabel_ = nullptr, *seedLabel_ = nullptr,
           *temperatureLabel_ = nullptr;
    QLineEdit* prompt_ = nullptr;
    QSpinBox* length_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QDoubleSpinBox* temperature_ = nullptr;
    QPushButton *sample_ = nullptr, *stop_ = nullptr, *save_ = nullptr;
    QLabel* status_ = nullptr;
    FilmstripView* view_ = nullptr;

    std::optional<qint64> run_;
    int steps_ = 0;  // begin()'s
    bool sampling_ = false;
    bool stopped_ = false;
    QString failure_;  // fail()'s message, until the next strip
    QString leftOut_;  // begin()'s
};
