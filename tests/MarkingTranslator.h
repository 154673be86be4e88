// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Stands in for a language in the tests: every text of one translation context
// comes back marked as «text», every other context untranslated, so a test sees
// which words went through tr() in that context and were retranslated.
#include <QByteArray>
#include <QString>
#include <QTranslator>

class MarkingTranslator : public QTranslator {
public:
    explicit MarkingTranslator(const char* context) : context_(context) {}
    QString translate(const char* context, const char* source, const char*, int) const override {
        return context_ == context ? QStringLiteral("«%1»").arg(QString::fromUtf8(source)) : QString();
    }
    bool isEmpty() const override { return false; }

private:
    QByteArray context_;
};
