// SPDX-License-Identifier: GPL-3.0-or-later
// Several test classes in one program: each test file registers its main under
// the file's name (tst_model for tst_model.cpp), and the program runs the one
// its first argument names, with Qt Test's options after it:
//     tests_model tst_model [-v2] [testFunction ...]
// A program's files compile together in batches (tests/CMakeLists.txt), so that
// LibTorch's precompiled header is loaded, and the templates the tests share are
// instantiated, once a batch instead of once a file. Each test file keeps its
// code in a namespace of its own name, so that its helpers meet no other file's.
#pragma once

#include <QStringList>
#include <QtTest>

namespace chargpt::test {

using Main = int (*)(int argc, char** argv);

// Registers `main` under the name of `sourceFile` (its base name without the
// extension); false when that name is taken.
bool addProgram(const char* sourceFile, Main main);

// The arguments that start the running test again in this same program (its
// name), for a test that runs itself as a child process.
QStringList selfArguments();

}  // namespace chargpt::test

// As QTEST_MAIN_WRAPPER, but registered instead of defining main().
#define CHARGPT_TEST_WRAPPER(TestObject, ...)                                                  \
    static int chargptTestMain(int argc, char* argv[]) {                                       \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                     \
        __VA_ARGS__                                                                            \
        TestObject tc;                                                                         \
        QTEST_SET_MAIN_SOURCE_PATH                                                             \
        return QTest::qExec(&tc, argc, argv);                                                  \
    }                                                                                          \
    [[maybe_unused]] static const bool chargptTestAdded = ::chargpt::test::addProgram(__FILE__, \
                                                                                      chargptTestMain);

// The application QTEST_MAIN would make (QApplication where the program links
// Qt Widgets, QGuiApplication where it links Qt Gui, QCoreApplication otherwise).
#define CHARGPT_TEST_MAIN(TestObject) CHARGPT_TEST_WRAPPER(TestObject, QTEST_MAIN_SETUP())
// A QCoreApplication, as QTEST_GUILESS_MAIN.
#define CHARGPT_TEST_GUILESS_MAIN(TestObject) CHARGPT_TEST_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
// A test file with a main of its own.
#define CHARGPT_TEST_CUSTOM_MAIN(function) \
    [[maybe_unused]] static const bool chargptTestAdded = ::chargpt::test::addProgram(__FILE__, function);
