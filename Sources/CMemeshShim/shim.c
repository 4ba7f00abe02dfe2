#include "memesh_shim.h"
#include <png.h>
#include <jpeglib.h>

int memesh_shim_version(void) { return 1; }
