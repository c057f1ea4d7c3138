/* The zlib headers an application includes (corpus case.env HEADERS). */
#include <zlib.h>
