#ifndef MEMESH_ENCODE_H
#define MEMESH_ENCODE_H
#include <stddef.h>
#include <stdint.h>

#include "memesh_decode.h"

/* Encoding straight from row pointers, so a meme is written without assembling a copy of the
   whole picture: the rows point into the decoded photo, and the captions are drawn, row by row,
   into a small scratch row by whichever thread reads a row they cover (the encoder's, the
   thumbnail's). Why C: the compositing and the row loops (filtering, RGBA to ARGB, the box
   filter) touch every pixel of a 12-MP meme while it is shared, and C's pointer loops
   vectorize; libjpeg's and libpng's errors longjmp, which Swift cannot catch. */

/// A glyph bitmap placed in the picture: `width * height` coverage bytes, or premultiplied
/// B G R A for a color glyph, its top-left pixel at (`x`, `y`).
typedef struct memesh_overlay_bitmap {
  const uint8_t *pixels;
  int32_t x, y;
  int32_t width, height;
} memesh_overlay_bitmap;

/// One text box, drawn like CaptionCanvas: the outline coverage in `outline_color` (the maximum
/// of every outline bitmap, so overlapping neighbours do not darken each other), then the fill
/// coverage in `fill_color` (likewise), then the color glyphs in order, all clipped to the
/// region `left ..< right`, `top ..< bottom`. Colours are 0xRRGGBB; a box without an outline has
/// no outline bitmaps.
typedef struct memesh_caption_layer {
  const memesh_overlay_bitmap *outlines;
  uint32_t outline_count;
  const memesh_overlay_bitmap *fills;
  uint32_t fill_count;
  const memesh_overlay_bitmap *colors;
  uint32_t color_count;
  int32_t left, top, right, bottom;
  uint32_t fill_color, outline_color;
} memesh_caption_layer;

/// The text boxes over a picture, drawn one layer after another (later boxes over earlier ones).
typedef struct memesh_overlay {
  const memesh_caption_layer *layers;
  uint32_t count;
} memesh_overlay;

/// The rows `*top ..< *bottom` where drawing `layer` can change pixels: the rows of its region
/// that one of its bitmaps reaches, or its whole region when it has no bitmaps at all (a layer
/// that only marks rows, as memesh-splice-bench's do). 1 when there are some, else 0.
int memesh_caption_layer_rows(const memesh_caption_layer *layer, int64_t *top, int64_t *bottom);

/// 1 when a layer's region covers row `row`. Why C: the encoders and the JPEG splicer ask it
/// for every row, from their own C loops and threads.
int memesh_overlay_covers(const memesh_overlay *overlay, uint32_t row);

/// Draws every layer's part of row `row` onto `pixels` (the row's `width` RGBA8 pixels).
/// `masks` is scratch of 2 × `width` bytes. Integer-exact with drawing the whole caption at
/// once: each pixel sees the same operations in the same order. Why C: it runs inside the
/// encoders' and the splicer's row loops, on their threads, over every pixel a box covers.
void memesh_overlay_draw_row(const memesh_overlay *overlay, uint32_t row, uint8_t *pixels,
                             uint32_t width, uint8_t *masks);

/// memesh_overlay_draw_row onto an opaque row of a JPEG's own colours: `planes` are `width`
/// samples each of Y, Cb and Cr at full resolution (`channels` 3), or of grey (`channels` 1,
/// only `planes[0]`). The caption colours are converted as libjpeg converts RGB; blending is
/// linear, so this is drawing in RGB and converting, up to rounding. Why C: the JPEG splicer
/// draws straight into libjpeg's raw sample rows, on its threads.
void memesh_overlay_draw_row_ycc(const memesh_overlay *overlay, uint32_t row,
                                 uint8_t *const planes[3], int channels, uint32_t width,
                                 uint8_t *masks);

/// The columns `*from ..< *to` of row `row` (clipped to `width`) that some layer's glyphs reach:
/// what memesh_overlay_draw_row may change there (`*from == *to`: nothing).
void memesh_overlay_row_span(const memesh_overlay *overlay, uint32_t row, uint32_t width,
                             uint32_t *from, uint32_t *to);

/// A picture as `height` pointers to rows of `width` RGBA8 pixels (rows need not be adjacent),
/// with `overlay` (or NULL) drawn over them.
typedef struct memesh_rows {
  const uint8_t *const *rows;
  uint32_t width;
  uint32_t height;
  /// 1: every alpha is 255 (a decoded JPEG); 0: some pixel is not opaque; -1: unknown (looked
  /// up when needed: each look is a pass over the whole picture). With the overlay drawn.
  int opaque;
  const memesh_overlay *overlay;
} memesh_rows;

/// How PNG rows are compressed (MemeRenderer.swift has the measured choice).
typedef struct memesh_png_compression {
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
} memesh_png_compression;

/// How to encode a meme, one value for every format: each encoder reads the fields it uses.
typedef struct memesh_encode_settings {
  /// JPEG and lossy WebP quality, 1–100.
  int quality;
  /// WebP: 1 lossless, 0 lossy.
  int lossless;
  /// WebP: libwebp's method, 0 (fastest) to 6 (smallest).
  int effort;
  memesh_png_compression png;
  /// The recipe text (NUL-terminated UTF-8) or NULL: a PNG iTXt chunk, a JPEG COM segment.
  const char *recipe;
  /// The recipe as an XMP packet (NUL-terminated) or NULL: a WebP XMP chunk.
  const char *recipe_xmp;
  /// The photo's RGB colour profile (ICC) to embed, or NULL.
  const uint8_t *icc;
  size_t icc_size;
} memesh_encode_settings;

/// One encoder: `image` to a file in `*out` (malloc'd, free with memesh_free) of `*out_size`
/// bytes; on failure MEMESH_ERROR with the reason in `message`.
typedef int (*memesh_rows_encoder)(const memesh_rows *image,
                                   const memesh_encode_settings *settings, uint8_t **out,
                                   size_t *out_size, char *message, size_t message_size);

/// 1 when every pixel's alpha is 255 (`image->opaque` when known).
int memesh_rows_opaque(const memesh_rows *image);

/// Baseline JPEG at `settings->quality` (alpha composited over white), in two halves on two
/// threads for large pictures; the recipe as a COM segment "memesh:recipe …", the profile as
/// APP2 markers. Why C: libjpeg's errors longjmp.
int memesh_encode_jpeg_rows(const memesh_rows *image, const memesh_encode_settings *settings,
                            uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// PNG, RGB when every pixel is opaque, filtered here and compressed as `settings->png` says;
/// the recipe as an iTXt chunk `memesh:recipe`, the profile as iCCP when libpng accepts it (else
/// left out). Why C: libpng's errors longjmp; the filters run over every byte.
int memesh_encode_png_rows(const memesh_rows *image, const memesh_encode_settings *settings,
                           uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// WebP, lossy at `settings->quality` or lossless, with `settings->effort`; the profile as an
/// ICCP chunk and `settings->recipe_xmp` as an XMP chunk. Why C: the rows (with captions drawn)
/// are turned into libwebp's ARGB picture pixel by pixel.
int memesh_encode_webp_rows(const memesh_rows *image, const memesh_encode_settings *settings,
                            uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// Box-filter reduction (alpha-weighted) of `image` to `out_width`×`out_height` RGBA8 pixels.
void memesh_downscale_rows(const memesh_rows *image, uint32_t out_width, uint32_t out_height,
                           uint8_t *out);

/// Target rows `first_row ..< end_row` of memesh_downscale_rows, the same bytes, into the same
/// `out` (the whole target): bands can be made on different threads.
void memesh_downscale_band(const memesh_rows *image, uint32_t out_width, uint32_t out_height,
                           uint32_t first_row, uint32_t end_row, uint8_t *out);

/// memesh_downscale_rows while the picture is being decoded into `image`'s rows: each target
/// row waits until `progress` says its source rows are final. 1 when done; 0 when the decode
/// ended without them (then `out` is partly written).
int memesh_downscale_following(const memesh_rows *image, uint32_t out_width,
                               uint32_t out_height, uint8_t *out, memesh_progress *progress);

#endif
