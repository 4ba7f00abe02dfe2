#ifndef MEMESH_CODEC_H
#define MEMESH_CODEC_H
#include <stddef.h>

/* The C half of MemeMedia's codec layer, used by MemeMedia only. Each function is C for one of
   two reasons, said at its declaration: the library reports errors with longjmp (libpng,
   libjpeg: memesh_decode.h), or it is a loop over every pixel of a 12-MP picture that runs
   while encoding, where C's plain pointer loops vectorize (memesh_encode.h). */

/// Status codes of every memesh_ call that can fail.
enum {
  MEMESH_OK = 0,
  MEMESH_ERROR = 1,
};

/// The keyword under which a meme's recipe is embedded in every format memesh writes: a PNG
/// iTXt keyword, the start of a JPEG comment (`memesh:recipe {…}`), a WebP XMP property.
#define MEMESH_RECIPE_KEYWORD "memesh:recipe"

/// Frees a buffer an encoder returned.
void memesh_free(void *pointer);

#endif
