#ifndef MEMESH_ROWS_INTERNAL_H
#define MEMESH_ROWS_INTERNAL_H
// The meme's rows with their captions drawn, for the encoders in this folder (encode.c).
#include "memesh_encode.h"

/// Row `row` of the meme: the photo's own row, or, where a caption is, a copy in `scratch`
/// (from meme_row_scratch, one per thread) with the caption drawn on it.
__attribute__((visibility("hidden"))) const uint8_t *meme_row(const memesh_rows *image,
                                                              uint32_t row, uint8_t *scratch);
/// Scratch for meme_row when `image` has an overlay (NULL otherwise, or when out of memory:
/// missing_scratch tells).
__attribute__((visibility("hidden"))) uint8_t *meme_row_scratch(const memesh_rows *image);
/// 1 when meme_row_scratch failed.
__attribute__((visibility("hidden"))) int missing_scratch(const memesh_rows *image,
                                                          const uint8_t *scratch);

#endif
