// SPDX-License-Identifier: GPL-3.0-or-later
// InspectionController's part for the lessons: the results it last gave the
// views, which a lesson's question is answered from (widgets/LessonAnswers),
// so that the answers come from the controller and not from the widgets.
#include "app/InspectionController.h"

#include "widgets/LessonAnswers.h"

lesson_answers::Inputs InspectionController::lessonInputs() const {
    lesson_answers::Inputs inputs;
    if (!shown_.attention.layers.isEmpty()) inputs.attention = &shown_.attention;
    inputs.attentionStep = shown_.attentionStep;
    inputs.knockout = &shown_.knockout;
    inputs.attribution = &shown_.attribution;
    inputs.patching = &shown_.patching;
    return inputs;
}

void InspectionController::forgetShownModel() {
    shown_.attention = ModelAttention();
    shown_.attentionStep = -1;
    shown_.knockout = Knockout();
}
