/* The sqlite3 headers an application includes (corpus case.env HEADERS). */
#include <sqlite3.h>
