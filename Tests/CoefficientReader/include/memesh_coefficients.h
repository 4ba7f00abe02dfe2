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

/// What memesh_test_encode_jpeg writes: libjpeg's baseline JPEG with these settings.
typedef struct memesh_test_jpeg_settings {
  int quality;
  /// 1 (grayscale) or 3 (YCbCr); the first component's sampling (the others are 1×1).
  int components, h, v;
  /// A restart marker every `restart_rows` MCU rows, or every `restart_mcus` MCUs (0: none).
  int restart_rows, restart_mcus;
  /// Huffman tables made for the picture (which lack codes it does not use).
  int optimize;
} memesh_test_jpeg_settings;

/// Test-only: `width` × `height` RGBA8 pixels as a JPEG another program could have written,
/// with restart markers and samplings memesh itself never writes. 0 on success, with `*jpeg`
/// (free with memesh_coefficients_free_jpeg) and `*size`.
int memesh_test_encode_jpeg(const uint8_t *rgba, uint32_t width, uint32_t height,
                            const memesh_test_jpeg_settings *settings, uint8_t **jpeg,
                            size_t *size);

void memesh_coefficients_free_jpeg(uint8_t *jpeg);

#endif
