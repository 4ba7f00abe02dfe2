#ifndef MEMESH_COEFFICIENTS_H
#define MEMESH_COEFFICIENTS_H
#include <stddef.h>
#include <stdint.h>

/* Test-only: a JPEG's quantized DCT coefficients through libjpeg's jpeg_read_coefficients, so
   tests can prove that blocks were carried over exactly. C because libjpeg's errors longjmp. */

/// One component's blocks: `blocks_across` × `blocks_down` blocks of 64 coefficients each,
/// in libjpeg's natural order, row by row.
typedef struct memesh_coefficient_plane {
  uint32_t blocks_across, blocks_down;
  uint32_t h, v;
  int16_t *coefficients;
} memesh_coefficient_plane;

typedef struct memesh_coefficients {
  uint32_t width, height;
  int components;
  memesh_coefficient_plane planes[4];
} memesh_coefficients;

/// Reads every component's coefficients; 0 on success, else 1 with `message` filled.
int memesh_read_coefficients(const uint8_t *jpeg, size_t size, memesh_coefficients *out,
                             char *message, size_t message_size);

/// Frees the planes.
void memesh_coefficients_free(memesh_coefficients *coefficients);

#endif
