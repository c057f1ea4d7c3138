#include <QtGui/QtGui>
#include <QtWidgets/QtWidgets>
