// main.cc - the library-wrapping paper's Qt program: an application, a
// window and an image; the window is shown and the event loop runs until a
// timer ends it (make installcheck runs it unattended).
#include <QtCore/QTimer>
#include <QtGui/QImage>
#include <QtWidgets/QApplication>
#include <QtWidgets/QWidget>

#include <cstdio>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QWidget window;
    QImage image(320, 200, QImage::Format_RGB32);
    window.show();
    QTimer::singleShot(0, &app, &QApplication::quit);
    int status = app.exec();
    std::printf("event loop ended with %d\n", status);
    return status;
}
