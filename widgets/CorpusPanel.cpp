// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/CorpusPanel.h"

#include "widgets/CorpusNames.h"
#include "widgets/PlainToolTip.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {
const QString kTang = QStringLiteral("builtin:tang300");
const QString kSong = QStringLiteral("builtin:song100");
const QString kPython = QStringLiteral("builtin:python");
}  // namespace

CorpusPanel::CorpusPanel(QWidget* parent) : QGroupBox(parent) {
    auto* layout = new QVBoxLayout(this);
    choice_ = new QComboBox(this);
    choice_->setObjectName(QStringLiteral("corpusChoice"));
    layout->addWidget(choice_);

    auto* buttons = new QHBoxLayout;
    openFileButton_ = new QPushButton(this);
    openFolderButton_ = new QPushButton(this);
    buttons->addWidget(openFileButton_);
    buttons->addWidget(openFolderButton_);
    layout->addLayout(buttons);

    statsLabel_ = new QLabel(this);
    statsLabel_->setObjectName(QStringLiteral("corpusStats"));
    statsLabel_->setWordWrap(true);
    statsLabel_->setTextFormat(Qt::PlainText);  // file names are not markup
    statsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(statsLabel_);

    errorLabel_ = new QLabel(this);
    errorLabel_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    errorLabel_->setObjectName(QStringLiteral("corpusError"));
    errorLabel_->setWordWrap(true);
    errorLabel_->setStyleSheet(QStringLiteral("color: #b00020;"));
    errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorLabel_->hide();
    layout->addWidget(errorLabel_);

    previewTitle_ = new QLabel(this);
    layout->addWidget(previewTitle_);
    preview_ = new QPlainTextEdit(this);
    preview_->setObjectName(QStringLiteral("corpusPreview"));
    preview_->setReadOnly(true);
    preview_->setLineWrapMode(QPlainTextEdit::NoWrap);
    preview_->setMaximumHeight(110);
    layout->addWidget(preview_);

    connect(choice_, &QComboBox::activated, this, [this](int index) {
        const QString source = choice_->itemData(index).toString();
        if (source.startsWith(QLatin1String("builtin:")) && source != corpus_.source)
            emit builtinRequested(source);
    });
    connect(openFileButton_, &QPushButton::clicked, this, &CorpusPanel::openFileRequested);
    connect(openFolderButton_, &QPushButton::clicked, this, &CorpusPanel::openFolderRequested);
    retranslateUi();
}

void CorpusPanel::setPythonAvailable(bool available) {
    pythonAvailable_ = available;
    retranslateUi();
}

void CorpusPanel::setLoading(const QString& source) {
    loadingSource_ = source;
    retranslateUi();  // the list names the text being loaded, not the one before
}

void CorpusPanel::showCorpus(const CorpusSummary& corpus) {
    corpus_ = corpus;
    loadingSource_.clear();
    errorSource_.clear();
    errorMessage_.clear();
    retranslateUi();
}

void CorpusPanel::showError(const QString& source, const QString& message) {
    loadingSource_.clear();
    errorSource_ = source;
    errorMessage_ = message;
    retranslateUi();
}

void CorpusPanel::setChangeable(bool changeable) {
    choice_->setEnabled(changeable);
    openFileButton_->setEnabled(changeable);
    openFolderButton_->setEnabled(changeable);
}

QString CorpusPanel::errorText() const { return errorLabel_->isHidden() ? QString() : errorLabel_->text(); }

void CorpusPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QGroupBox::changeEvent(event);
}

QString CorpusPanel::displayName(const QString& source) const {
    const QString shown = corpusShownName(source);
    return shown != source ? shown : QFileInfo(source).fileName();
}

void CorpusPanel::retranslateUi() {
    setTitle(tr("Corpus"));
    openFileButton_->setText(tr("Open file…"));
    openFileButton_->setToolTip(tr("Train on a UTF-8 text file (you can also drop one on the window)"));
    openFolderButton_->setText(tr("Open folder…"));
    openFolderButton_->setToolTip(tr("Train on every text file of a folder"));
    previewTitle_->setText(corpus_.modelVocabularySize > 0 ? tr("Preview, as the model reads it:") : tr("Preview:"));

    choice_->blockSignals(true);
    choice_->clear();
    choice_->addItem(displayName(kTang), kTang);
    choice_->addItem(displayName(kSong), kSong);
    if (pythonAvailable_)
        choice_->addItem(displayName(kPython), kPython);
    // The text being loaded while it loads (the Python library takes seconds),
    // else the one loaded.
    const QString shown = loadingSource_.isEmpty() ? corpus_.source : loadingSource_;
    if (!shown.isEmpty() && !shown.startsWith(QLatin1String("builtin:")))
        choice_->addItem(tr("File: %1").arg(displayName(shown)), shown);
    choice_->setCurrentIndex(std::max(0, choice_->findData(shown)));
    choice_->blockSignals(false);
    refreshValues();
}

void CorpusPanel::refreshValues() {
    const QLocale locale;
    if (!loadingSource_.isEmpty()) {
        statsLabel_->setText(tr("Loading %1…").arg(displayName(loadingSource_)));
    } else if (corpus_.source.isEmpty()) {
        statsLabel_->setText(tr("No corpus loaded."));
    } else {
        QString text = tr("%1 · %2 characters · vocabulary of %3")
                           .arg(locale.formattedDataSize(corpus_.bytes), locale.toString(corpus_.characters),
                                locale.toString(corpus_.vocabularySize));
        if (corpus_.modelVocabularySize > 0) {
            // Read with the trained model's vocabulary: say how much of it that leaves out.
            const double share = corpus_.tokens > 0 ? 100.0 * double(corpus_.unknownCharacters) / double(corpus_.tokens) : 0.0;
            text += QLatin1Char('\n') +
                    (corpus_.unknownCharacters == 0
                         ? tr("Read with the model's %1 characters: it knows every one.")
                               .arg(locale.toString(corpus_.modelVocabularySize))
                         : tr("Read with the model's %1 characters: %2 it does not know (%3%) are left out.")
                               .arg(locale.toString(corpus_.modelVocabularySize), locale.toString(corpus_.unknownCharacters),
                                    locale.toString(share, 'f', share < 10 ? 1 : 0)));
        }
        // Which text the validation loss is measured on.
        text +=
            QLatin1Char('\n') +
            (corpus_.validationDocuments > 0
                 ? tr("Validation: %1 of the %2 documents, drawn with the run's seed.")
                       .arg(locale.toString(corpus_.validationDocuments), locale.toString(corpus_.documents))
                 : tr("Validation: the end of the text."));
        QString details;
        if (!corpus_.warnings.isEmpty()) {
            text += QLatin1Char('\n') + tr("%n file(s) left out", nullptr, int(corpus_.warnings.size()));
            // The first reason in the panel, the first twenty on hover: a folder
            // of thousands of bad files must not make a label of thousands of lines.
            const QString first = corpus_.warnings.first();
            text += QLatin1Char('\n') + (first.size() > 300 ? first.left(300) + QChar(0x2026) : first);
            details = corpus_.warnings.mid(0, 20).join(QLatin1Char('\n'));
        }
        statsLabel_->setText(text);
        statsLabel_->setToolTip(plainToolTip(details));
    }
    if (errorMessage_.isEmpty()) {
        errorLabel_->hide();
    } else {
        errorLabel_->setText(tr("Could not load %1: %2").arg(displayName(errorSource_), errorMessage_));
        errorLabel_->show();
    }
    if (preview_->toPlainText() != corpus_.preview)
        preview_->setPlainText(corpus_.preview);
}
