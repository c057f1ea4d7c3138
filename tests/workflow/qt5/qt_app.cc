// qt_app.cc - a Qt Widgets program whose output tells whether wrapping
// changed its behaviour: signals connected by pointer-to-member (the
// program's own, Qt's internal ones), QString::sprintf (variadic, returns
// a reference), and pixel checksums of painted images and widgets.
#include <QtCore/QCoreApplication>
#include <QtCore/QTimer>
#include <QtGui/QImage>
#include <QtGui/QLinearGradient>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtWidgets/QAction>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSlider>
#include <QtWidgets/QVBoxLayout>
#include <QtWidgets/QWidget>

#include <cstdio>

static unsigned long checksum(const QImage &image)
{
    unsigned long sum = 5381;
    const int height = image.height(), width = image.bytesPerLine();
    for (int y = 0; y < height; y++) {
        const uchar *line = image.constScanLine(y);
        for (int x = 0; x < width; x++)
            sum = sum * 33 + line[x];
    }
    return sum;
}

int main(int argc, char **argv)
{
    QApplication app(argc, argv);

    int clicked = 0, triggered = 0, toggled = 0, moved = 0, renamed = 0, timeouts = 0;
    QPushButton button("Press");
    QObject::connect(&button, &QPushButton::clicked, [&] { clicked++; });
    QAction action("Act", nullptr);
    QObject::connect(&action, &QAction::triggered, [&](bool) { triggered++; });
    QCheckBox box("Box");
    QObject::connect(&box, &QCheckBox::toggled, [&](bool on) { toggled += on ? 1 : 10; });
    QSlider slider(Qt::Horizontal);
    QObject::connect(&slider, &QSlider::valueChanged, [&](int v) { moved += v; });
    QObject::connect(&app, &QCoreApplication::applicationNameChanged, [&] { renamed++; });

    button.click();
    button.click();
    action.trigger();
    box.toggle();
    box.toggle();
    slider.setRange(0, 100);
    slider.setValue(42);
    app.setApplicationName("renamed");
    std::printf("signals: clicked %d triggered %d toggled %d moved %d renamed %d\n", clicked, triggered,
                toggled, moved, renamed);

    QString s;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    QString &r = s.sprintf("%d-%s-%.3f-%c", 42, "forty-two", 4.2, 'x');
#pragma GCC diagnostic pop
    std::printf("sprintf: %s same-object %d\n", qPrintable(r), &r == &s);
    std::printf("arg: %s\n", qPrintable(QString("%1 + %2 = %3").arg(1).arg(2).arg(3)));

    QImage image(160, 120, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        QLinearGradient g(0, 0, 160, 120);
        g.setColorAt(0, Qt::red);
        g.setColorAt(1, Qt::blue);
        p.fillRect(10, 10, 140, 100, g);
        p.setPen(QPen(Qt::darkGreen, 3));
        p.drawEllipse(QPointF(80, 60), 50, 30);
        QPainterPath path;
        path.moveTo(0, 120);
        path.cubicTo(40, 0, 120, 0, 160, 120);
        p.drawPath(path);
    }
    std::printf("image: %dx%d checksum %lu\n", image.width(), image.height(), checksum(image));

    QWidget window;
    QVBoxLayout layout(&window);
    QSlider shown(Qt::Horizontal);
    shown.setRange(0, 10);
    shown.setValue(7);
    layout.addWidget(&shown);
    window.resize(200, 80);
    window.show();
    QImage grabbed = window.grab().toImage();
    std::printf("widget: %dx%d checksum %lu\n", grabbed.width(), grabbed.height(), checksum(grabbed));

    QTimer timer;
    QObject::connect(&timer, &QTimer::timeout, [&] {
        if (++timeouts == 3)
            app.quit();
    });
    timer.start(1);
    int rc = app.exec();
    std::printf("event loop: %d timeouts, exit %d\n", timeouts, rc);
    return rc + 3;
}
