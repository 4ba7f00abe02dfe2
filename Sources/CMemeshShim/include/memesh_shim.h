#ifndef MEMESH_SHIM_H
#define MEMESH_SHIM_H
#include <stddef.h>
#include <stdint.h>

/* memesh's only C: libpng and libjpeg report fatal errors with longjmp, which Swift cannot
   catch. Every call that can fail lives here and returns a status with a message instead. */

/// Version of this shim, to check linking from Swift.
int memesh_shim_version(void);

#endif
