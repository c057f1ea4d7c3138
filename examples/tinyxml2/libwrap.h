/* The tinyxml2 headers an application includes (corpus case.env HEADERS). */
#include <tinyxml2.h>
