#ifndef MEMESH_ENCODE_H
#define MEMESH_ENCODE_H
#include <stddef.h>
#include <stdint.h>

/* Encoding straight from row pointers, so a meme is written without assembling a copy of the
   whole picture: most rows point into the decoded photo, the few rows a caption covers point
   into a small strip with the text drawn. libjpeg's errors longjmp, so this lives in the shim. */

/// A picture as `height` pointers to rows of `width` RGBA8 pixels (rows need not be adjacent).
typedef struct memesh_rows {
  const uint8_t *const *rows;
  uint32_t width;
  uint32_t height;
  /// 1: every alpha is 255 (a decoded JPEG); 0: some pixel is not opaque; -1: unknown (looked
  /// up when needed: each look is a pass over the whole picture).
  int opaque;
} memesh_rows;

/// How memesh_encode_png_rows compresses (MemeRenderer.swift has the measured choice).
typedef struct memesh_png_options {
  /// 0: zlib (streaming, split over `threads` like pigz); 1: libdeflate (whole image at once).
  int use_libdeflate;
  /// zlib level 0–9 or libdeflate level 0–12.
  int level;
  /// PNG filter for every row: 0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth; 5 per row the best of
  /// Sub/Up/Paeth by sum of absolute differences.
  int filter;
  /// 1 or 2.
  int threads;
  /// zlib strategy (ignored by libdeflate): 0 default, 1 filtered, 2 Huffman only, 3 RLE.
  int strategy;
} memesh_png_options;

/// 1 when every pixel's alpha is 255 (`image->opaque` when known).
int memesh_rows_opaque(const memesh_rows *image);

/// Baseline JPEG at `quality` (alpha composited over white); `recipe` (or NULL) becomes a COM
/// segment "memesh:recipe …"; `icc` (or NULL) is embedded as the colour profile (APP2).
/// On success `*out` is malloc'd; free it with memesh_free.
int memesh_encode_jpeg_rows(const memesh_rows *image, int quality, const char *recipe,
                            const uint8_t *icc, size_t icc_size, uint8_t **out, size_t *out_size,
                            char *message, size_t message_size);

/// PNG, RGB when `keep_alpha` is 0; `recipe` (or NULL) becomes an iTXt chunk `memesh:recipe`;
/// `icc` (or NULL) an iCCP chunk when it is an RGB profile libpng accepts (else left out).
int memesh_encode_png_rows(const memesh_rows *image, int keep_alpha, const char *recipe,
                           const uint8_t *icc, size_t icc_size, memesh_png_options options,
                           uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// Box-filter reduction (alpha-weighted) of `image` to `out_width`×`out_height` RGBA8 pixels.
void memesh_downscale_rows(const memesh_rows *image, uint32_t out_width, uint32_t out_height,
                           uint8_t *out);

/// Caption drawing's inner loops (CaptionCanvas), in C because they touch millions of pixels
/// on a 12-MP meme. Blends `gray` at coverage `mask` over `height` rows of `width` RGBA pixels
/// (`pixels` rows `row_bytes` apart, `mask` rows `mask_stride` apart): source-over with straight
/// alpha, integer-exact with CaptionCanvas.blend.
void memesh_composite_mask(uint8_t *pixels, size_t row_bytes, const uint8_t *mask,
                           size_t mask_stride, uint32_t width, uint32_t height, uint8_t gray);

/// target[i] = max(target[i], source[i]) for `count` bytes: merges glyph coverage.
void memesh_max_bytes(uint8_t *target, const uint8_t *source, size_t count);

/// What memesh_render_rows writes: the encoded file and, when asked, a thumbnail.
typedef struct memesh_render_request {
  /// 0 JPEG, 1 PNG.
  int png;
  int jpeg_quality;
  int keep_alpha;
  memesh_png_options png_options;
  const char *recipe;
  /// The photo's RGB colour profile to embed (NULL: none).
  const uint8_t *icc;
  size_t icc_size;
  /// Thumbnail size (0×0: none) and where its RGBA8 pixels go.
  uint32_t thumbnail_width, thumbnail_height;
  uint8_t *thumbnail;
} memesh_render_request;

/// Encodes and makes the thumbnail at the same time (the thumbnail on a second thread).
int memesh_render_rows(const memesh_rows *image, const memesh_render_request *request,
                       uint8_t **out, size_t *out_size, char *message, size_t message_size);

#endif
