// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/FilmstripPage.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <limits>

#include "widgets/FilmstripExport.h"
#include "widgets/FilmstripView.h"
#include "widgets/PromptEdit.h"
#include "widgets/ViewExport.h"

namespace {
// `chargpt filmstrip`'s range and defaults (app/cli/CliCommands.cpp).
constexpr int kMaxChars = 10000;
}  // namespace

FilmstripPage::FilmstripPage(QWidget* parent) : QWidget(parent) {
    promptLabel_ = new QLabel(this);
    prompt_ = new QLineEdit(this);
    prompt_->setObjectName(QStringLiteral("filmstripPrompt"));
    prompt_->setMaxLength(int(kMaxPromptChars));
    prompt_->setMinimumWidth(220);
    lengthLabel_ = new QLabel(this);
    length_ = new QSpinBox(this);
    length_->setRange(1, kMaxChars);
    length_->setValue(int(FilmstripAsk().chars));
    seedLabel_ = new QLabel(this);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setValue(int(FilmstripAsk().seed));
    temperatureLabel_ = new QLabel(this);
    temperature_ = new QDoubleSpinBox(this);
    temperature_->setRange(0.0, 5.0);
    temperature_->setSingleStep(0.1);
    temperature_->setValue(FilmstripAsk().temperature);
    sample_ = new QPushButton(this);
    sample_->setObjectName(QStringLiteral("filmstripSample"));
    stop_ = new QPushButton(this);
    save_ = new QPushButton(this);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("filmstripStatus"));
    status_->setTextFormat(Qt::PlainText);  // a run library's message is text, never markup
    status_->setWordWrap(true);
    view_ = new FilmstripView(this);
    view_->hideEmptySummary();

    auto* words = new QHBoxLayout;
    words->addWidget(promptLabel_);
    words->addWidget(prompt_, 1);
    for (QWidget* w : std::initializer_list<QWidget*>{lengthLabel_, length_, seedLabel_, seed_,
                                                      temperatureLabel_, temperature_, sample_, stop_, save_})
        words->addWidget(w);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(words);
    layout->addWidget(status_);
    layout->addWidget(view_, 1);

    connect(sample_, &QPushButton::clicked, this, [this] {
        if (!run_) return;
        sampling_ = true;  // until finish() or fail()
        steps_ = 0;
        failure_.clear();
        updateState();
        emit sampleRequested(ask());
    });
    connect(prompt_, &QLineEdit::returnPressed, sample_, &QPushButton::click);
    connect(stop_, &QPushButton::clicked, this, &FilmstripPage::stopRequested);
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString name = QStringLiteral("filmstrip-run-%1.html").arg(view_->samples().run);
        ViewExport::chooseAndExport(
            this, tr("Save filmstrip"), name,
            [this](const QString& path, QString* error) { return saveTo(path, error); }, saveFilters());
    });
    retranslateUi();
}

void FilmstripPage::setRun(std::optional<qint64> run) {
    // Another run on the timeline (a new one, or one opened from the Runs
    // tab): the strip of the run before is not this one's, and its rows name
    // steps this run may never have had.
    if (!sampling_ && run != view_->samples().run && !view_->samples().rows.isEmpty()) {
        view_->setSamples(FilmstripSamples{});
        stopped_ = false;
        failure_.clear();
        leftOut_.clear();
    }
    run_ = run;
    updateState();
}

FilmstripAsk FilmstripPage::ask() const {
    FilmstripAsk ask;
    ask.prompt = prompt_->text();
    ask.chars = length_->value();
    ask.seed = quint64(seed_->value());
    ask.temperature = temperature_->value();
    return ask;
}

void FilmstripPage::begin(const FilmstripSamples& heading, int steps, const QString& leftOut) {
    run_ = heading.run;
    steps_ = steps;
    sampling_ = true;
    stopped_ = false;
    failure_.clear();
    leftOut_ = leftOut;
    FilmstripSamples samples = heading;
    samples.rows.clear();
    view_->setSamples(samples);
    updateState();
}

void FilmstripPage::addRow(const FilmstripRow& row) {
    view_->appendRow(row);
    updateState();
}

void FilmstripPage::finish(bool stopped) {
    sampling_ = false;
    stopped_ = stopped;
    updateState();
}

void FilmstripPage::fail(const QString& message) {
    sampling_ = false;
    failure_ = message;
    updateState();
}

QString FilmstripPage::saveFilters() { return tr("Web page (*.html *.htm);;Text (*.txt)"); }

bool FilmstripPage::saveTo(const QString& path, QString* error) const {
    QByteArray bytes;
    return renderFilmstrip(path, view_->samples(), &bytes, error) &&
           ViewExport::writeBytes(path, bytes, error);
}

QString FilmstripPage::statusText() const {
    if (!failure_.isEmpty()) return tr("No filmstrip: %1").arg(failure_);
    const qsizetype rows = view_->samples().rows.size();
    QString text;
    if (sampling_)
        text = tr("Sampling run %1: %2 of %3 steps so far…").arg(view_->samples().run).arg(rows).arg(steps_);
    else if (stopped_)
        text = tr("Stopped after %1 of %2 steps.").arg(rows).arg(steps_);
    else if (!run_)
        return tr("No run on the timeline keeps its weights yet: train one, or open one in the Runs tab.");
    else if (rows == 0)
        text = tr("Run %1 keeps its weights as it learns: sample every kept step from the same prompt and "
                  "seed to "
                  "see what the model wrote at each.")
                   .arg(*run_);
    else
        text = tr("Click a row to show that step in every tab.");
    if (!leftOut_.isEmpty())
        text += QLatin1Char(' ') + tr("Left out of the prompt (not in the vocabulary): %1").arg(leftOut_);
    return text;
}

void FilmstripPage::updateState() {
    sample_->setEnabled(run_ && !sampling_);
    stop_->setEnabled(sampling_);
    save_->setEnabled(!sampling_ && !view_->samples().rows.isEmpty());
    status_->setText(statusText());
}

void FilmstripPage::retranslateUi() {
    promptLabel_->setText(tr("Prompt:"));
    prompt_->setPlaceholderText(tr("(the start of a document)"));
    prompt_->setToolTip(tr("Every sample continues this text; empty: each starts a document"));
    lengthLabel_->setText(tr("Length:"));
    seedLabel_->setText(tr("Seed:"));
    temperatureLabel_->setText(tr("Temperature:"));
    temperature_->setToolTip(tr("0 always picks the likeliest character"));
    sample_->setText(tr("Sample every kept step"));
    stop_->setText(tr("Stop"));
    save_->setText(tr("Save…"));
    save_->setToolTip(tr("Save the filmstrip as a web page (.html) or as text (.txt)"));
    updateState();
}

void FilmstripPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}
