// Encoding memes from row pointers (see memesh_encode.h): JPEG with libjpeg-turbo, PNG with
// zlib split over two threads (or libdeflate), a box-filtered thumbnail on a second thread.
#include "memesh_encode.h"
#include "rows.h"

#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <libdeflate.h>
#include <png.h>
#include <zlib.h>

enum { ENCODE_MESSAGE_SIZE = 256 };

static const char encode_recipe_keyword[] = MEMESH_RECIPE_KEYWORD;

static inline uint8_t over_white(unsigned value, unsigned alpha) {
  // value × alpha / 255 + 255 × (255 − alpha) / 255, rounded.
  unsigned mixed = value * alpha + 255 * (255 - alpha) + 128;
  return (uint8_t)((mixed + (mixed >> 8)) >> 8);
}

// MARK: - Captions

/// One row to draw captions on: channel `c` of pixel `x` is `planes[c][x * step]`, its alpha
/// `alpha[x * step]` (NULL: the row is opaque). An RGBA8 row, or full-resolution Y, Cb and Cr
/// rows (or one grey row) of a JPEG being spliced, whose caption colours are converted first.
typedef struct draw_target {
  uint8_t *planes[3];
  uint8_t *alpha;
  size_t step;
  int channels;
  int ycc;
} draw_target;

/// Source-over of the colour `color` (in the target's channels) at coverage `alpha` (1…255)
/// onto pixel `x` (straight alpha).
static inline void blend_color(const draw_target *target, size_t x, unsigned alpha,
                               const unsigned color[3]) {
  size_t at = x * target->step;
  unsigned inverse = 255 - alpha;
  unsigned destination_alpha = target->alpha != NULL ? target->alpha[at] : 255;
  if (destination_alpha == 255) {
    // Opaque background, the common case: out = src + dst × (1 − a).
    for (int channel = 0; channel < target->channels; channel++) {
      uint8_t *value = target->planes[channel] + at;
      *value = (uint8_t)((color[channel] * alpha + *value * inverse + 127) / 255);
    }
    return;
  }
  // Transparent background: premultiply, add, divide by the new alpha.
  unsigned out_alpha = alpha * 255 + destination_alpha * inverse;
  if (out_alpha == 0) return;
  for (int channel = 0; channel < target->channels; channel++) {
    uint8_t *pixel = target->planes[channel] + at;
    unsigned value =
        (color[channel] * alpha * 255 + *pixel * destination_alpha * inverse + out_alpha / 2) /
        out_alpha;
    *pixel = (uint8_t)(value > 255 ? 255 : value);
  }
  target->alpha[at] = (uint8_t)((out_alpha + 127) / 255);
}

/// 16 coverage bytes, and 16 samples widened to 16 bits.
typedef uint8_t coverage16 __attribute__((vector_size(16)));
typedef uint16_t samples16 __attribute__((vector_size(32)));

/// `color` at coverage `cover` over the opaque `value`, as blend_color rounds it:
/// (x + 127) / 255 computed as (y + 1 + (y >> 8)) >> 8 with y = x + 127 (exact for y <= 65,152,
/// and every y here is at most 255 × 255 + 127), so 16-bit lanes suffice.
static inline samples16 over_opaque(samples16 value, uint16_t color, samples16 cover) {
  samples16 mixed = color * cover + value * (255 - cover) + 127;
  return (mixed + 1 + (mixed >> 8)) >> 8;
}

/// `plane[i]` with `outline_value` at coverage `outline[i]`, then `fill_value` at coverage
/// `fill[i]`, drawn over it (source-over on an opaque sample), for `count` samples: what
/// blend_color gives (coverage 0 leaves the sample, 255 sets the colour), 16 samples at a time
/// in 16-bit lanes. Runs of 16 that neither mask reaches (between letters) are skipped, runs
/// inside a letter set, runs inside the outline blend the fill over the outline colour only, and
/// runs no letter reaches blend the outline only.
static inline void blend_opaque_plane(uint8_t *restrict plane, const uint8_t *restrict outline,
                                      const uint8_t *restrict fill, uint16_t outline_value,
                                      uint16_t fill_value, size_t count) {
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    coverage16 edge, letter, value;
    memcpy(&edge, outline + i, 16);
    memcpy(&letter, fill + i, 16);
    uint64_t halves[2];
    coverage16 reached = edge | letter;
    memcpy(halves, &reached, 16);
    if ((halves[0] | halves[1]) == 0) continue;
    memcpy(halves, &letter, 16);
    if ((halves[0] & halves[1]) == UINT64_MAX) {
      // Inside a letter: the fill colour, whatever the outline did.
      memset(plane + i, fill_value, 16);
      continue;
    }
    uint64_t letters = halves[0] | halves[1];
    memcpy(halves, &edge, 16);
    samples16 mixed;
    if ((halves[0] & halves[1]) == UINT64_MAX) {
      // Inside the outline: the outline colour, with the letter's edge over it.
      mixed = over_opaque((samples16){0} + outline_value, fill_value,
                          __builtin_convertvector(letter, samples16));
    } else {
      memcpy(&value, plane + i, 16);
      mixed = over_opaque(__builtin_convertvector(value, samples16), outline_value,
                          __builtin_convertvector(edge, samples16));
      // No letter reaches: the outline alone (a fill at coverage 0 changes nothing).
      if (letters != 0) {
        mixed = over_opaque(mixed, fill_value, __builtin_convertvector(letter, samples16));
      }
    }
    value = __builtin_convertvector(mixed, coverage16);
    memcpy(plane + i, &value, 16);
  }
  for (; i < count; i++) {
    unsigned mixed = outline_value * outline[i] + plane[i] * (255u - outline[i]) + 127;
    unsigned value = (mixed + 1 + (mixed >> 8)) >> 8;
    mixed = fill_value * fill[i] + value * (255u - fill[i]) + 127;
    plane[i] = (uint8_t)((mixed + 1 + (mixed >> 8)) >> 8);
  }
}

/// 0xRRGGBB as three channels.
static inline void unpack_color(uint32_t color, unsigned rgb[3]) {
  rgb[0] = (color >> 16) & 0xFF;
  rgb[1] = (color >> 8) & 0xFF;
  rgb[2] = color & 0xFF;
}

/// R G B as JFIF's Y, Cb, Cr with libjpeg's 16-bit fixed-point factors; `alpha` 255 for a
/// straight colour, or a premultiplied colour's alpha (the chroma offset of 128 is then
/// premultiplied too, so blending it as a premultiplied colour adds the right chroma).
static inline void ycc_from_rgb(const unsigned rgb[3], unsigned alpha, unsigned ycc[3]) {
  int64_t r = rgb[0], g = rgb[1], b = rgb[2];
  int64_t offset = ((int64_t)alpha * (128 << 16) + 127) / 255;
  int64_t values[3] = {19595 * r + 38470 * g + 7471 * b + 32768,
                       -11059 * r - 21709 * g + 32768 * b + offset + 32767,
                       32768 * r - 27439 * g - 5329 * b + offset + 32767};
  for (int channel = 0; channel < 3; channel++) {
    int64_t value = values[channel] >> 16;
    ycc[channel] = (unsigned)(value < 0 ? 0 : value > (int64_t)alpha ? alpha : value);
  }
}

/// 0xRRGGBB in the target's channels.
static inline void target_color(const draw_target *target, uint32_t color, unsigned out[3]) {
  unpack_color(color, out);
  if (target->ycc) ycc_from_rgb(out, 255, out);
}

/// Source-over of a premultiplied colour (`alpha` 1…255, in the target's channels) onto pixel
/// `x` (straight alpha).
static inline void blend_premultiplied(const draw_target *target, size_t x,
                                       const unsigned color[3], unsigned alpha) {
  size_t at = x * target->step;
  unsigned inverse = 255 - alpha;
  unsigned destination_alpha = target->alpha != NULL ? target->alpha[at] : 255;
  if (destination_alpha == 255) {
    for (int channel = 0; channel < target->channels; channel++) {
      uint8_t *pixel = target->planes[channel] + at;
      unsigned value = (color[channel] * 255 + *pixel * inverse + 127) / 255;
      *pixel = (uint8_t)(value > 255 ? 255 : value);
    }
    return;
  }
  unsigned out_alpha = alpha * 255 + destination_alpha * inverse;
  if (out_alpha == 0) return;
  for (int channel = 0; channel < target->channels; channel++) {
    uint8_t *pixel = target->planes[channel] + at;
    unsigned value =
        (color[channel] * 255 * 255 + *pixel * destination_alpha * inverse + out_alpha / 2) /
        out_alpha;
    *pixel = (uint8_t)(value > 255 ? 255 : value);
  }
  target->alpha[at] = (uint8_t)((out_alpha + 127) / 255);
}

/// The columns `*from ..< *to` of `bitmap` on picture row `row`, clipped to `left ..< right`;
/// 0 when it has none there.
static int bitmap_span(const memesh_overlay_bitmap *bitmap, int64_t row, int64_t left,
                       int64_t right, int64_t *from, int64_t *to) {
  if (bitmap->width <= 0 || bitmap->pixels == NULL || row < bitmap->y ||
      row >= (int64_t)bitmap->y + bitmap->height) {
    return 0;
  }
  int64_t start = bitmap->x > left ? bitmap->x : left;
  int64_t end = (int64_t)bitmap->x + bitmap->width;
  if (end > right) end = right;
  if (start >= end) return 0;
  *from = start;
  *to = end;
  return 1;
}

/// Widens `*low ..< *high` to the columns `bitmaps` reach on `row`.
static void widen_span(const memesh_overlay_bitmap *bitmaps, uint32_t count, int64_t row,
                       int64_t left, int64_t right, int64_t *low, int64_t *high) {
  int64_t from, to;
  for (uint32_t index = 0; index < count; index++) {
    if (!bitmap_span(&bitmaps[index], row, left, right, &from, &to)) continue;
    if (from < *low) *low = from;
    if (to > *high) *high = to;
  }
}

/// mask[x] = max(mask[x], coverage) for every coverage bitmap on `row`.
static void merge_coverage(const memesh_overlay_bitmap *bitmaps, uint32_t count, int64_t row,
                           int64_t left, int64_t right, uint8_t *mask) {
  int64_t from, to;
  for (uint32_t index = 0; index < count; index++) {
    const memesh_overlay_bitmap *bitmap = &bitmaps[index];
    if (!bitmap_span(bitmap, row, left, right, &from, &to)) continue;
    const uint8_t *source = bitmap->pixels + (size_t)(row - bitmap->y) * (size_t)bitmap->width +
                            (size_t)(from - bitmap->x);
    uint8_t *target = mask + from;
    size_t length = (size_t)(to - from);
    for (size_t column = 0; column < length; column++) {
      target[column] = source[column] > target[column] ? source[column] : target[column];
    }
  }
}

/// Widens `*top ..< *bottom` to the rows `bitmaps` reach.
static void widen_rows(const memesh_overlay_bitmap *bitmaps, uint32_t count, int64_t *top,
                       int64_t *bottom) {
  for (uint32_t index = 0; index < count; index++) {
    const memesh_overlay_bitmap *bitmap = &bitmaps[index];
    if (bitmap->width <= 0 || bitmap->height <= 0 || bitmap->pixels == NULL) continue;
    if (bitmap->y < *top) *top = bitmap->y;
    if ((int64_t)bitmap->y + bitmap->height > *bottom) *bottom = (int64_t)bitmap->y + bitmap->height;
  }
}

int memesh_caption_layer_rows(const memesh_caption_layer *layer, int64_t *top,
                              int64_t *bottom) {
  *top = layer->top;
  *bottom = layer->bottom;
  if (layer->outline_count + layer->fill_count + layer->color_count > 0) {
    int64_t low = INT64_MAX, high = INT64_MIN;
    widen_rows(layer->outlines, layer->outline_count, &low, &high);
    widen_rows(layer->fills, layer->fill_count, &low, &high);
    widen_rows(layer->colors, layer->color_count, &low, &high);
    if (low > *top) *top = low;
    if (high < *bottom) *bottom = high;
  }
  return *top < *bottom && layer->left < layer->right;
}

int memesh_overlay_covers(const memesh_overlay *overlay, uint32_t row) {
  if (overlay == NULL) return 0;
  for (uint32_t index = 0; index < overlay->count; index++) {
    const memesh_caption_layer *layer = &overlay->layers[index];
    if ((int64_t)row >= layer->top && (int64_t)row < layer->bottom && layer->left < layer->right) {
      return 1;
    }
  }
  return 0;
}

/// Draws every layer's part of row `row` onto `target` (see memesh_overlay_draw_row). Inlined
/// into each caller, so each kind of row gets its own loop.
static inline __attribute__((always_inline)) void draw_row(const memesh_overlay *overlay,
                                                           uint32_t row, draw_target target,
                                                           uint32_t width, uint8_t *masks) {
  if (overlay == NULL) return;
  uint8_t *outline = masks, *fill = masks + width;
  int64_t y = row;
  for (uint32_t index = 0; index < overlay->count; index++) {
    const memesh_caption_layer *layer = &overlay->layers[index];
    if (y < layer->top || y >= layer->bottom) continue;
    int64_t left = layer->left > 0 ? layer->left : 0;
    int64_t right = layer->right < (int64_t)width ? layer->right : (int64_t)width;
    if (left >= right) continue;
    // Coverage only where some glyph reaches on this row: most of a caption's rectangle is
    // neither outline nor letter.
    int64_t low = right, high = left;
    widen_span(layer->outlines, layer->outline_count, y, left, right, &low, &high);
    widen_span(layer->fills, layer->fill_count, y, left, right, &low, &high);
    if (low < high) {
      unsigned fill_color[3], outline_color[3];
      target_color(&target, layer->fill_color, fill_color);
      target_color(&target, layer->outline_color, outline_color);
      memset(outline + low, 0, (size_t)(high - low));
      memset(fill + low, 0, (size_t)(high - low));
      merge_coverage(layer->outlines, layer->outline_count, y, left, right, outline);
      merge_coverage(layer->fills, layer->fill_count, y, left, right, fill);
      if (target.alpha == NULL && target.step == 1) {
        // Opaque planes of their own (a JPEG being spliced): plane by plane.
        for (int channel = 0; channel < target.channels; channel++) {
          blend_opaque_plane(target.planes[channel] + low, outline + low, fill + low,
                             (uint16_t)outline_color[channel], (uint16_t)fill_color[channel],
                             (size_t)(high - low));
        }
      } else {
        for (int64_t column = low; column < high; column++) {
          unsigned edge = outline[column], letter = fill[column];
          if (letter == 255 || (edge == 255 && letter == 0)) {
            // Whatever the outline did, a fully covered letter pixel ends opaque in the fill; a
            // fully covered outline pixel no letter reaches, opaque in the outline colour (what
            // blending at coverage 255 gives, without the arithmetic).
            const unsigned *color = letter == 255 ? fill_color : outline_color;
            size_t at = (size_t)column * target.step;
            for (int channel = 0; channel < target.channels; channel++) {
              target.planes[channel][at] = (uint8_t)color[channel];
            }
            if (target.alpha != NULL) target.alpha[at] = 255;
            continue;
          }
          if (edge != 0) blend_color(&target, (size_t)column, edge, outline_color);
          if (letter != 0) blend_color(&target, (size_t)column, letter, fill_color);
        }
      }
    }
    int64_t from, to;
    for (uint32_t glyph = 0; glyph < layer->color_count; glyph++) {
      const memesh_overlay_bitmap *bitmap = &layer->colors[glyph];
      if (!bitmap_span(bitmap, y, left, right, &from, &to)) continue;
      const uint8_t *source = bitmap->pixels + ((size_t)(y - bitmap->y) * (size_t)bitmap->width +
                                                (size_t)(from - bitmap->x)) * 4;
      for (int64_t column = from; column < to; column++, source += 4) {
        unsigned alpha = source[3];
        if (alpha == 0) continue;
        // B G R A, premultiplied.
        unsigned color[3] = {source[2], source[1], source[0]};
        if (target.ycc) ycc_from_rgb(color, alpha, color);
        blend_premultiplied(&target, (size_t)column, color, alpha);
      }
    }
  }
}

void memesh_overlay_draw_row(const memesh_overlay *overlay, uint32_t row, uint8_t *pixels,
                             uint32_t width, uint8_t *masks) {
  draw_target target = {{pixels, pixels + 1, pixels + 2}, pixels + 3, 4, 3, 0};
  draw_row(overlay, row, target, width, masks);
}

void memesh_overlay_draw_row_ycc(const memesh_overlay *overlay, uint32_t row,
                                 uint8_t *const planes[3], int channels, uint32_t width,
                                 uint8_t *masks) {
  if (channels == 1) {
    draw_target grey = {{planes[0], NULL, NULL}, NULL, 1, 1, 1};
    draw_row(overlay, row, grey, width, masks);
  } else {
    draw_target ycc = {{planes[0], planes[1], planes[2]}, NULL, 1, 3, 1};
    draw_row(overlay, row, ycc, width, masks);
  }
}

void memesh_overlay_row_span(const memesh_overlay *overlay, uint32_t row, uint32_t width,
                             uint32_t *from, uint32_t *to) {
  int64_t low = width, high = 0, y = row;
  for (uint32_t index = 0; overlay != NULL && index < overlay->count; index++) {
    const memesh_caption_layer *layer = &overlay->layers[index];
    if (y < layer->top || y >= layer->bottom) continue;
    int64_t left = layer->left > 0 ? layer->left : 0;
    int64_t right = layer->right < (int64_t)width ? layer->right : (int64_t)width;
    if (left >= right) continue;
    widen_span(layer->outlines, layer->outline_count, y, left, right, &low, &high);
    widen_span(layer->fills, layer->fill_count, y, left, right, &low, &high);
    widen_span(layer->colors, layer->color_count, y, left, right, &low, &high);
  }
  *from = low < high ? (uint32_t)low : 0;
  *to = low < high ? (uint32_t)high : 0;
}

/// Bytes of scratch meme_row needs: the row and two coverage masks.
static size_t meme_row_scratch_size(const memesh_rows *image) {
  return (size_t)image->width * 6;
}

/// Row `row` of the meme: the photo's own row, or, where a caption is, a copy in `scratch`
/// (meme_row_scratch_size bytes, one per thread) with the caption drawn on it.
const uint8_t *meme_row(const memesh_rows *image, uint32_t row, uint8_t *scratch) {
  if (image->overlay == NULL || scratch == NULL || !memesh_overlay_covers(image->overlay, row)) {
    return image->rows[row];
  }
  memcpy(scratch, image->rows[row], (size_t)image->width * 4);
  memesh_overlay_draw_row(image->overlay, row, scratch, image->width,
                          scratch + (size_t)image->width * 4);
  return scratch;
}

/// Scratch for meme_row when `image` has an overlay (NULL otherwise, or when out of memory:
/// missing_scratch tells).
uint8_t *meme_row_scratch(const memesh_rows *image) {
  return image->overlay != NULL ? malloc(meme_row_scratch_size(image)) : NULL;
}

/// 1 when meme_row_scratch failed.
int missing_scratch(const memesh_rows *image, const uint8_t *scratch) {
  return image->overlay != NULL && scratch == NULL;
}

// MARK: - Rows

int memesh_rows_opaque(const memesh_rows *image) {
  if (image->opaque >= 0) return image->opaque;
  uint8_t *scratch = meme_row_scratch(image);
  if (missing_scratch(image, scratch)) return 0;
  for (uint32_t row = 0; row < image->height; row++) {
    // Whole pixels as words (memcpy: no alignment assumed), so the loop vectorizes.
    const uint8_t *pixels = meme_row(image, row, scratch);
    uint32_t all = 0xFFFFFFFFu;
    for (uint32_t column = 0; column < image->width; column++) {
      uint32_t word;
      memcpy(&word, pixels + (size_t)column * 4, 4);
      all &= word;
    }
    uint8_t bytes[4];
    memcpy(bytes, &all, 4);
    if (bytes[3] != 255) {
      free(scratch);
      return 0;
    }
  }
  free(scratch);
  return 1;
}

// MARK: - JPEG

/// One JPEG encode, on the heap so nothing the error path needs changes across setjmp.
struct jpeg_rows_encoder {
  jmp_buf jump;
  char message[ENCODE_MESSAGE_SIZE];
  struct jpeg_compress_struct jpeg;
  struct jpeg_error_mgr error;
  unsigned char *buffer;
  unsigned long size;
  uint8_t *row;
  uint8_t *scratch;
};

static void encode_jpeg_error_exit(j_common_ptr info) {
  struct jpeg_rows_encoder *encoder = info->client_data;
  char text[JMSG_LENGTH_MAX];
  info->err->format_message(info, text);
  snprintf(encoder->message, sizeof encoder->message, "%s", text);
  longjmp(encoder->jump, 1);
}

static void encode_jpeg_silent(j_common_ptr info) { (void)info; }

/// Encodes rows `first_row ..< first_row + row_count` as a JPEG of their own; `restart_rows`
/// 1 puts a restart marker after every MCU row, so two parts can be spliced into one file.
static int encode_jpeg_part(const memesh_rows *image, uint32_t first_row, uint32_t row_count,
                            int quality, const char *recipe, const uint8_t *icc,
                            size_t icc_size, int restart_rows, int jfif, uint8_t **out,
                            size_t *out_size, char *message, size_t message_size) {
  *out = NULL;
  *out_size = 0;
  struct jpeg_rows_encoder *encoder = calloc(1, sizeof *encoder);
  if (encoder == NULL) {
    snprintf(message, message_size, "out of memory");
    return MEMESH_ERROR;
  }
  encoder->jpeg.err = jpeg_std_error(&encoder->error);
  encoder->error.error_exit = encode_jpeg_error_exit;
  encoder->error.output_message = encode_jpeg_silent;
  if (setjmp(encoder->jump)) {
    snprintf(message, message_size, "%s", encoder->message);
    jpeg_destroy_compress(&encoder->jpeg);
    free(encoder->buffer);
    free(encoder->row);
    free(encoder->scratch);
    free(encoder);
    return MEMESH_ERROR;
  }
  jpeg_create_compress(&encoder->jpeg);
  encoder->jpeg.client_data = encoder;
  jpeg_mem_dest(&encoder->jpeg, &encoder->buffer, &encoder->size);
  // Opaque rows go to libjpeg-turbo as they are (it reads RGBA itself); others are composited
  // over white one row at a time.
  int opaque = memesh_rows_opaque(image);
  encoder->jpeg.image_width = image->width;
  encoder->jpeg.image_height = row_count;
  encoder->jpeg.input_components = opaque ? 4 : 3;
  encoder->jpeg.in_color_space = opaque ? JCS_EXT_RGBA : JCS_RGB;
  jpeg_set_defaults(&encoder->jpeg);
  jpeg_set_quality(&encoder->jpeg, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
  encoder->jpeg.restart_in_rows = restart_rows;
  encoder->jpeg.write_JFIF_header = jfif ? TRUE : FALSE;
  if (!opaque) {
    encoder->row = malloc((size_t)image->width * 3 + 1);
    if (encoder->row == NULL) {
      snprintf(encoder->message, sizeof encoder->message, "out of memory");
      longjmp(encoder->jump, 1);
    }
  }
  encoder->scratch = meme_row_scratch(image);
  if (missing_scratch(image, encoder->scratch)) {
    snprintf(encoder->message, sizeof encoder->message, "out of memory");
    longjmp(encoder->jump, 1);
  }
  jpeg_start_compress(&encoder->jpeg, TRUE);
  // The photo's colour profile, so viewers show its colours (a Display P3 phone photo would
  // otherwise look duller): libjpeg-turbo splits it over APP2 markers.
  if (icc != NULL && icc_size > 0 && icc_size <= UINT_MAX) {
    jpeg_write_icc_profile(&encoder->jpeg, icc, (unsigned int)icc_size);
  }
  if (recipe != NULL) {
    size_t length = strlen(recipe);
    if (length + sizeof encode_recipe_keyword > 65533) {
      snprintf(encoder->message, sizeof encoder->message,
               "the recipe is too long for a JPEG comment");
      longjmp(encoder->jump, 1);
    }
    jpeg_write_m_header(&encoder->jpeg, JPEG_COM,
                        (unsigned int)(length + sizeof encode_recipe_keyword));
    for (const char *byte = encode_recipe_keyword; *byte != 0; byte++) {
      jpeg_write_m_byte(&encoder->jpeg, *byte);
    }
    jpeg_write_m_byte(&encoder->jpeg, ' ');
    for (size_t index = 0; index < length; index++) {
      jpeg_write_m_byte(&encoder->jpeg, (unsigned char)recipe[index]);
    }
  }
  while (encoder->jpeg.next_scanline < row_count) {
    uint32_t next = encoder->jpeg.next_scanline;
    if (opaque) {
      // Rows without captions straight from the photo, as many as come in a run; a caption
      // row drawn into the scratch row (libjpeg converts each row as it is handed over).
      uint32_t end = next;
      while (end < row_count && !memesh_overlay_covers(image->overlay, first_row + end)) end++;
      if (end > next) {
        // libjpeg only reads the rows; its prototype is not const.
        JSAMPARRAY rows = (JSAMPARRAY)(uintptr_t)(image->rows + first_row + next);
        jpeg_write_scanlines(&encoder->jpeg, rows, end - next);
      } else {
        JSAMPROW rows[1] = {(JSAMPROW)(uintptr_t)meme_row(image, first_row + next,
                                                           encoder->scratch)};
        jpeg_write_scanlines(&encoder->jpeg, rows, 1);
      }
      continue;
    }
    const uint8_t *source = meme_row(image, first_row + next, encoder->scratch);
    for (size_t pixel = 0; pixel < image->width; pixel++) {
      unsigned alpha = source[pixel * 4 + 3];
      for (size_t channel = 0; channel < 3; channel++) {
        encoder->row[pixel * 3 + channel] = over_white(source[pixel * 4 + channel], alpha);
      }
    }
    JSAMPROW rows[1] = {encoder->row};
    jpeg_write_scanlines(&encoder->jpeg, rows, 1);
  }
  jpeg_finish_compress(&encoder->jpeg);
  jpeg_destroy_compress(&encoder->jpeg);
  *out = encoder->buffer;
  *out_size = encoder->size;
  free(encoder->row);
  free(encoder->scratch);
  free(encoder);
  return MEMESH_OK;
}

/// The second half of a split encode, run on its own thread.
struct jpeg_part_job {
  const memesh_rows *image;
  uint32_t first_row, row_count;
  int quality, status;
  uint8_t *data;
  size_t size;
  char message[ENCODE_MESSAGE_SIZE];
};

static void *encode_jpeg_part_job(void *argument) {
  struct jpeg_part_job *job = argument;
  job->status = encode_jpeg_part(job->image, job->first_row, job->row_count, job->quality, NULL,
                                 NULL, 0,
                                 1, 0, &job->data, &job->size, job->message, sizeof job->message);
  return NULL;
}

/// Where the entropy-coded data of a JPEG's first scan starts (after the SOS header), or 0.
static size_t scan_start(const uint8_t *data, size_t size) {
  size_t offset = 2;  // SOI
  while (offset + 4 <= size && data[offset] == 0xFF) {
    unsigned marker = data[offset + 1];
    size_t length = ((size_t)data[offset + 2] << 8) | data[offset + 3];
    if (marker == 0xDA) return offset + 2 + length;
    offset += 2 + length;
  }
  return 0;
}

/// The offset of the SOF0 height field, or 0.
static size_t frame_height_field(const uint8_t *data, size_t size) {
  size_t offset = 2;
  while (offset + 9 <= size && data[offset] == 0xFF) {
    unsigned marker = data[offset + 1];
    size_t length = ((size_t)data[offset + 2] << 8) | data[offset + 3];
    if (marker == 0xC0) return offset + 5;
    if (marker == 0xDA) return 0;
    offset += 2 + length;
  }
  return 0;
}

/// Joins two JPEGs of the same width, tables and restart interval (one MCU row) into one: the
/// first with its frame height patched to the total, a restart marker, then the second's scan
/// data with its restart markers renumbered to continue the count. NULL on a layout surprise.
static uint8_t *splice_jpeg(uint8_t *first, size_t first_size, const uint8_t *second,
                            size_t second_size, uint32_t height, uint32_t first_mcu_rows,
                            size_t *out_size) {
  size_t height_field = frame_height_field(first, first_size);
  size_t data = scan_start(second, second_size);
  if (height_field == 0 || data == 0 || first_size < 4 || second_size < data + 2 ||
      first[first_size - 2] != 0xFF || first[first_size - 1] != 0xD9 ||
      second[second_size - 2] != 0xFF || second[second_size - 1] != 0xD9) {
    return NULL;
  }
  size_t body = second_size - 2 - data;
  uint8_t *joined = realloc(first, first_size + body + 2);
  if (joined == NULL) return NULL;
  joined[height_field] = (uint8_t)(height >> 8);
  joined[height_field + 1] = (uint8_t)height;
  size_t at = first_size - 2;  // over the first EOI
  // The restart interval that ended the first part: RST0…RST7 count MCU rows modulo 8.
  joined[at++] = 0xFF;
  joined[at++] = (uint8_t)(0xD0 + (first_mcu_rows - 1) % 8);
  const uint8_t *source = second + data;
  for (size_t index = 0; index < body; index++) {
    uint8_t byte = source[index];
    joined[at++] = byte;
    if (byte == 0xFF && index + 1 < body) {
      uint8_t next = source[++index];
      if (next >= 0xD0 && next <= 0xD7) next = (uint8_t)(0xD0 + (next - 0xD0 + first_mcu_rows) % 8);
      joined[at++] = next;
    }
  }
  joined[at++] = 0xFF;
  joined[at++] = 0xD9;
  *out_size = at;
  return joined;
}

int memesh_encode_jpeg_rows(const memesh_rows *image, const memesh_encode_settings *settings,
                            uint8_t **out, size_t *out_size, char *message, size_t message_size) {
  int quality = settings->quality;
  const char *recipe = settings->recipe;
  const uint8_t *icc = settings->icc;
  size_t icc_size = settings->icc_size;
  // Large pictures are encoded as two halves on two threads, joined at a restart marker (every
  // MCU row restarts, which costs a few bytes per row). The halves split on a 16-row boundary,
  // so the decoded pixels are the same as from one pass.
  uint32_t mcu = 16;
  uint32_t split = image->height / 2 / mcu * mcu;
  if (image->height < 512 || image->width < 64) {
    return encode_jpeg_part(image, 0, image->height, quality, recipe, icc, icc_size, 0, 1, out,
                            out_size,
                            message, message_size);
  }
  struct jpeg_part_job job = {image, split, image->height - split, quality, MEMESH_ERROR, NULL, 0,
                              ""};
  pthread_t thread;
  int threaded = pthread_create(&thread, NULL, encode_jpeg_part_job, &job) == 0;
  uint8_t *first = NULL;
  size_t first_size = 0;
  int status = encode_jpeg_part(image, 0, split, quality, recipe, icc, icc_size, 1, 1, &first,
                                &first_size,
                                message, message_size);
  if (threaded) pthread_join(thread, NULL);
  else encode_jpeg_part_job(&job);
  if (status != MEMESH_OK || job.status != MEMESH_OK) {
    if (status == MEMESH_OK) snprintf(message, message_size, "%s", job.message);
    free(first);
    free(job.data);
    return MEMESH_ERROR;
  }
  uint8_t *joined = splice_jpeg(first, first_size, job.data, job.size, image->height,
                                split / mcu, out_size);
  free(job.data);
  if (joined == NULL) {
    free(first);
    // Not the layout expected: one pass, as small pictures are encoded.
    return encode_jpeg_part(image, 0, image->height, quality, recipe, icc, icc_size, 0, 1, out,
                            out_size,
                            message, message_size);
  }
  *out = joined;
  return MEMESH_OK;
}

// MARK: - PNG filtering

static inline uint8_t paeth_predictor(int left, int up, int up_left) {
  int estimate = left + up - up_left;
  int distance_left = abs(estimate - left), distance_up = abs(estimate - up),
      distance_up_left = abs(estimate - up_left);
  if (distance_left <= distance_up && distance_left <= distance_up_left) return (uint8_t)left;
  if (distance_up <= distance_up_left) return (uint8_t)up;
  return (uint8_t)up_left;
}

/// Filters `row` (the row above is `prior`, all zeros for the first row) into `out`.
static void filter_one(int type, const uint8_t *row, const uint8_t *prior, size_t length,
                       size_t pixel_bytes, uint8_t *out) {
  switch (type) {
  case 1:
    for (size_t index = 0; index < pixel_bytes; index++) out[index] = row[index];
    for (size_t index = pixel_bytes; index < length; index++) {
      out[index] = (uint8_t)(row[index] - row[index - pixel_bytes]);
    }
    break;
  case 2:
    for (size_t index = 0; index < length; index++) {
      out[index] = (uint8_t)(row[index] - prior[index]);
    }
    break;
  case 3:
    for (size_t index = 0; index < length; index++) {
      int left = index >= pixel_bytes ? row[index - pixel_bytes] : 0;
      out[index] = (uint8_t)(row[index] - ((left + prior[index]) >> 1));
    }
    break;
  case 4:
    for (size_t index = 0; index < length; index++) {
      int left = index >= pixel_bytes ? row[index - pixel_bytes] : 0;
      int up_left = index >= pixel_bytes ? prior[index - pixel_bytes] : 0;
      out[index] = (uint8_t)(row[index] - paeth_predictor(left, prior[index], up_left));
    }
    break;
  default: memcpy(out, row, length); break;
  }
}

static size_t absolute_sum(const uint8_t *filtered, size_t length) {
  size_t cost = 0;
  for (size_t index = 0; index < length; index++) {
    cost += filtered[index] < 128 ? filtered[index] : 256 - filtered[index];
  }
  return cost;
}

/// Rows as PNG wants them: RGB or RGBA bytes, the row above kept for the filters.
struct row_filter {
  const memesh_rows *image;
  int keep_alpha, filter;
  size_t channels, length;
  uint8_t *memory;                     // 4 × length: current, prior, scratch (2 × length)
  uint8_t *current, *prior, *scratch;
  uint8_t *caption_row;                // meme_row's scratch (NULL without captions)
};

static int row_filter_init(struct row_filter *filter, const memesh_rows *image, int keep_alpha,
                           int type) {
  filter->image = image;
  filter->keep_alpha = keep_alpha;
  filter->filter = type < 0 || type > 5 ? 2 : type;
  filter->channels = keep_alpha ? 4 : 3;
  filter->length = (size_t)image->width * filter->channels;
  filter->memory = calloc(4, filter->length);
  filter->caption_row = meme_row_scratch(image);
  if (filter->memory == NULL || missing_scratch(image, filter->caption_row)) {
    free(filter->memory);
    free(filter->caption_row);
    return MEMESH_ERROR;
  }
  filter->current = filter->memory;
  filter->prior = filter->memory + filter->length;
  filter->scratch = filter->memory + 2 * filter->length;
  return MEMESH_OK;
}

static void row_filter_free(struct row_filter *filter) {
  free(filter->memory);
  free(filter->caption_row);
}

/// Loads row `row` as PNG bytes into `target`.
static void load_row(const struct row_filter *filter, uint32_t row, uint8_t *target) {
  const uint8_t *source = meme_row(filter->image, row, filter->caption_row);
  if (filter->keep_alpha) {
    memcpy(target, source, filter->length);
    return;
  }
  for (size_t pixel = 0; pixel < filter->image->width; pixel++) {
    target[pixel * 3] = source[pixel * 4];
    target[pixel * 3 + 1] = source[pixel * 4 + 1];
    target[pixel * 3 + 2] = source[pixel * 4 + 2];
  }
}

/// Prepares for filtering from `row` on (loads the row above it).
static void row_filter_start(struct row_filter *filter, uint32_t row) {
  if (row == 0) memset(filter->prior, 0, filter->length);
  else load_row(filter, row - 1, filter->prior);
}

/// Writes the filter byte and the filtered row `row` to `out` (1 + length bytes); rows must come
/// in order after row_filter_start.
static void row_filter_next(struct row_filter *filter, uint32_t row, uint8_t *out) {
  load_row(filter, row, filter->current);
  if (filter->filter == 5) {
    static const int types[] = {1, 2, 4};
    size_t best = SIZE_MAX;
    for (int choice = 0; choice < 3; choice++) {
      uint8_t *candidate = filter->scratch + (size_t)(choice % 2) * filter->length;
      filter_one(types[choice], filter->current, filter->prior, filter->length, filter->channels,
                 candidate);
      size_t cost = absolute_sum(candidate, filter->length);
      if (cost < best) {
        best = cost;
        out[0] = (uint8_t)types[choice];
        memcpy(out + 1, candidate, filter->length);
      }
    }
  } else {
    out[0] = (uint8_t)filter->filter;
    filter_one(filter->filter, filter->current, filter->prior, filter->length, filter->channels,
               out + 1);
  }
  uint8_t *swap = filter->prior;
  filter->prior = filter->current;
  filter->current = swap;
}

// MARK: - PNG compression

/// One thread's rows of the zlib stream: raw deflate ending on a byte boundary (sync flush),
/// or the stream's end for the last part, as pigz does.
struct png_part {
  const memesh_rows *image;
  memesh_png_compression options;
  int keep_alpha, last;
  uint32_t first_row, end_row;
  uint8_t *data;
  size_t size;
  uLong adler;
  size_t raw_size;
  int failed;
};

static void *compress_part(void *argument) {
  struct png_part *part = argument;
  part->failed = 1;
  part->adler = adler32(0, NULL, 0);
  struct row_filter filter;
  if (row_filter_init(&filter, part->image, part->keep_alpha, part->options.filter) != MEMESH_OK) {
    return NULL;
  }
  size_t row_size = filter.length + 1;
  size_t batch_rows = row_size >= (256u << 10) ? 1 : (256u << 10) / row_size;
  uint8_t *batch = malloc(batch_rows * row_size);
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  int level = part->options.level < 0 ? 1 : part->options.level > 9 ? 9 : part->options.level;
  int strategy = part->options.strategy == 1   ? Z_FILTERED
                 : part->options.strategy == 2 ? Z_HUFFMAN_ONLY
                 : part->options.strategy == 3 ? Z_RLE
                                               : Z_DEFAULT_STRATEGY;
  if (batch == NULL ||
      deflateInit2(&stream, level, Z_DEFLATED, -15, 9, strategy) != Z_OK) {
    free(batch);
    row_filter_free(&filter);
    return NULL;
  }
  size_t raw_total = row_size * (part->end_row - part->first_row);
  size_t capacity = deflateBound(&stream, raw_total) + 1024;
  part->data = malloc(capacity);
  int ok = part->data != NULL;
  row_filter_start(&filter, part->first_row);
  for (uint32_t row = part->first_row; ok && row < part->end_row;) {
    uint32_t count = part->end_row - row < batch_rows ? part->end_row - row : (uint32_t)batch_rows;
    for (uint32_t index = 0; index < count; index++) {
      row_filter_next(&filter, row + index, batch + index * row_size);
    }
    row += count;
    part->adler = adler32(part->adler, batch, (uInt)(count * row_size));
    int flush = row < part->end_row ? Z_NO_FLUSH : part->last ? Z_FINISH : Z_SYNC_FLUSH;
    stream.next_in = batch;
    stream.avail_in = (uInt)(count * row_size);
    for (;;) {
      if (stream.total_out + 64 > capacity) {
        size_t grown = capacity + capacity / 2 + 65536;
        uint8_t *bigger = realloc(part->data, grown);
        if (bigger == NULL) {
          ok = 0;
          break;
        }
        part->data = bigger;
        capacity = grown;
      }
      stream.next_out = part->data + stream.total_out;
      size_t room = capacity - stream.total_out;
      stream.avail_out = (uInt)(room > UINT_MAX ? UINT_MAX : room);
      int status = deflate(&stream, flush);
      if (status == Z_STREAM_ERROR) {
        ok = 0;
        break;
      }
      int done = flush == Z_FINISH ? status == Z_STREAM_END
                                   : stream.avail_in == 0 && stream.avail_out > 0;
      if (done) break;
    }
  }
  part->size = stream.total_out;
  part->raw_size = raw_total;
  deflateEnd(&stream);
  free(batch);
  row_filter_free(&filter);
  if (!ok) {
    free(part->data);
    part->data = NULL;
    return NULL;
  }
  part->failed = 0;
  return NULL;
}

/// One thread's share of filtering for libdeflate, which needs every filtered row at once.
struct filter_part {
  const memesh_rows *image;
  int keep_alpha, filter;
  uint32_t first_row, end_row;
  uint8_t *filtered;
  int failed;
};

static void *filter_part_rows(void *argument) {
  struct filter_part *part = argument;
  struct row_filter filter;
  if (row_filter_init(&filter, part->image, part->keep_alpha, part->filter) != MEMESH_OK) {
    part->failed = 1;
    return NULL;
  }
  size_t row_size = filter.length + 1;
  row_filter_start(&filter, part->first_row);
  for (uint32_t row = part->first_row; row < part->end_row; row++) {
    row_filter_next(&filter, row, part->filtered + (size_t)row * row_size);
  }
  row_filter_free(&filter);
  return NULL;
}

/// The zlib stream of the filtered image, as one or two parts (`parts` filled, count returned;
/// the caller frees parts[i].data). 0 on failure.
static int compress_image(const memesh_rows *image, int keep_alpha, memesh_png_compression options,
                          struct png_part parts[2], uint8_t header[2], uint8_t trailer[4]) {
  int count = options.threads >= 2 && image->height >= 64 ? 2 : 1;
  memset(parts, 0, 2 * sizeof parts[0]);
  uLong adler;
  if (options.use_libdeflate) {
    size_t row_size = 1 + (size_t)image->width * (keep_alpha ? 4 : 3);
    size_t total = row_size * image->height;
    uint8_t *filtered = malloc(total);
    if (filtered == NULL) return 0;
    struct filter_part jobs[2];
    for (int index = 0; index < count; index++) {
      jobs[index] = (struct filter_part){
          image, keep_alpha, options.filter,
          (uint32_t)((uint64_t)image->height * index / count),
          (uint32_t)((uint64_t)image->height * (index + 1) / count), filtered, 0};
    }
    pthread_t thread;
    int threaded = count == 2 && pthread_create(&thread, NULL, filter_part_rows, &jobs[1]) == 0;
    filter_part_rows(&jobs[0]);
    if (threaded) pthread_join(thread, NULL);
    else if (count == 2) filter_part_rows(&jobs[1]);
    int filtered_ok = !jobs[0].failed && !(count == 2 && jobs[1].failed);
    struct libdeflate_compressor *compressor =
        filtered_ok ? libdeflate_alloc_compressor(options.level) : NULL;
    if (compressor == NULL) {
      free(filtered);
      return 0;
    }
    size_t bound = libdeflate_deflate_compress_bound(compressor, total);
    parts[0].data = malloc(bound);
    parts[0].size = parts[0].data == NULL ? 0
                                          : libdeflate_deflate_compress(compressor, filtered, total,
                                                                        parts[0].data, bound);
    libdeflate_free_compressor(compressor);
    adler = libdeflate_adler32(1, filtered, total);
    free(filtered);
    if (parts[0].size == 0) {
      free(parts[0].data);
      parts[0].data = NULL;
      return 0;
    }
    count = 1;
  } else {
    for (int index = 0; index < count; index++) {
      parts[index] = (struct png_part){
          .image = image, .options = options, .keep_alpha = keep_alpha,
          .last = index == count - 1,
          .first_row = (uint32_t)((uint64_t)image->height * index / count),
          .end_row = (uint32_t)((uint64_t)image->height * (index + 1) / count)};
    }
    pthread_t thread;
    int threaded = count == 2 && pthread_create(&thread, NULL, compress_part, &parts[1]) == 0;
    compress_part(&parts[0]);
    if (threaded) pthread_join(thread, NULL);
    else if (count == 2) compress_part(&parts[1]);
    if (parts[0].failed || (count == 2 && parts[1].failed)) {
      for (int index = 0; index < count; index++) free(parts[index].data);
      return 0;
    }
    adler = parts[0].adler;
    if (count == 2) adler = adler32_combine(adler, parts[1].adler, (z_off_t)parts[1].raw_size);
  }
  // CMF: deflate, 32 KiB window; FLG: a check making the pair a multiple of 31, "fast" level.
  header[0] = 0x78;
  header[1] = 0x5E;
  for (int index = 0; index < 4; index++) trailer[index] = (uint8_t)(adler >> (24 - 8 * index));
  return count;
}

// MARK: - PNG file

/// libpng writes into this buffer, sized beforehand so it never moves.
struct png_output {
  uint8_t *data;
  size_t size, capacity;
  char message[ENCODE_MESSAGE_SIZE];
};

static void png_output_write(png_structp png, png_bytep bytes, size_t length) {
  struct png_output *output = png_get_io_ptr(png);
  if (length > output->capacity - output->size) {
    size_t capacity = output->capacity + output->capacity / 2 + length + 4096;
    uint8_t *grown = realloc(output->data, capacity);
    if (grown == NULL) png_error(png, "out of memory");
    output->data = grown;
    output->capacity = capacity;
  }
  memcpy(output->data + output->size, bytes, length);
  output->size += length;
}

static void png_output_flush(png_structp png) { (void)png; }

static void png_output_error(png_structp png, png_const_charp text) {
  struct png_output *output = png_get_error_ptr(png);
  snprintf(output->message, sizeof output->message, "%s", text);
  png_longjmp(png, 1);
}

static void png_output_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

/// Whether libpng takes `icc` as an iCCP chunk without complaint. libpng checks a profile when
/// it is set (its tags, its rendering intent, known-bad sRGB profiles) and, writing, treats a
/// doubt as an error; a profile it refuses is left out rather than failing the meme.
static int png_icc_acceptable(const uint8_t *icc, size_t icc_size) {
  if (!memesh_icc_is_rgb(icc, icc_size)) return 0;
  struct png_output probe_output;
  memset(&probe_output, 0, sizeof probe_output);
  png_structp volatile png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &probe_output,
                                                     png_output_error, png_output_warning);
  if (png == NULL) return 0;
  png_infop volatile info = png_create_info_struct(png);
  int accepted = 0;
  if (info != NULL && !setjmp(png_jmpbuf(png))) {
    png_set_IHDR(png, info, 1, 1, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_size);
    accepted = png_get_valid(png, info, PNG_INFO_iCCP) != 0 && probe_output.message[0] == 0;
  }
  png_structp png_copy = png;
  png_infop info_copy = info;
  png_destroy_write_struct(&png_copy, info_copy != NULL ? &info_copy : NULL);
  return accepted;
}

int memesh_encode_png_rows(const memesh_rows *image, const memesh_encode_settings *settings,
                           uint8_t **out, size_t *out_size, char *message, size_t message_size) {
  // RGB when every pixel is opaque: a quarter fewer bytes to filter and compress.
  int keep_alpha = !memesh_rows_opaque(image);
  const char *recipe = settings->recipe;
  const uint8_t *icc = settings->icc;
  size_t icc_size = settings->icc_size;
  memesh_png_compression options = settings->png;
  *out = NULL;
  *out_size = 0;
  struct png_part parts[2];
  uint8_t header[2], trailer[4];
  int count = compress_image(image, keep_alpha, options, parts, header, trailer);
  if (count == 0) {
    snprintf(message, message_size, "out of memory while compressing");
    return MEMESH_ERROR;
  }
  size_t stream_size = 6;
  for (int index = 0; index < count; index++) stream_size += parts[index].size;
  struct png_output *output = calloc(1, sizeof *output);
  png_structp volatile png = NULL;
  png_infop volatile info = NULL;
  if (output != NULL) {
    output->capacity = stream_size + (recipe != NULL ? strlen(recipe) : 0) + icc_size + 4096;
    output->data = malloc(output->capacity);
    if (output->data != NULL) {
      png = png_create_write_struct(PNG_LIBPNG_VER_STRING, output, png_output_error,
                                    png_output_warning);
    }
  }
  if (png != NULL) info = png_create_info_struct(png);
  if (info == NULL) {
    png_structp png_copy = png;
    png_destroy_write_struct(&png_copy, NULL);
    if (output != NULL) free(output->data);
    free(output);
    for (int index = 0; index < count; index++) free(parts[index].data);
    snprintf(message, message_size, "out of memory");
    return MEMESH_ERROR;
  }
  if (setjmp(png_jmpbuf(png))) {
    snprintf(message, message_size, "%s", output->message);
    png_structp png_copy = png;
    png_infop info_copy = info;
    png_destroy_write_struct(&png_copy, &info_copy);
    free(output->data);
    free(output);
    for (int index = 0; index < count; index++) free(parts[index].data);
    return MEMESH_ERROR;
  }
  png_set_write_fn(png, output, png_output_write, png_output_flush);
  png_set_IHDR(png, info, image->width, image->height, 8,
               keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (icc != NULL && icc_size > 0 && png_icc_acceptable(icc, icc_size)) {
    png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_size);
  }
  if (recipe != NULL) {
    png_text text;
    memset(&text, 0, sizeof text);
    text.compression = PNG_ITXT_COMPRESSION_NONE;
    text.key = (png_charp)encode_recipe_keyword;
    text.text = (png_charp)recipe;
    text.itxt_length = strlen(recipe);
    text.lang = (png_charp) "";
    text.lang_key = (png_charp) "";
    png_set_text(png, info, &text, 1);
  }
  png_write_info(png, info);
  // One IDAT holding the whole zlib stream: libpng writes the framing and the CRC while the
  // pieces stream through, so the compressed data is copied once.
  png_write_chunk_start(png, (png_const_bytep) "IDAT", (png_uint_32)stream_size);
  png_write_chunk_data(png, header, 2);
  for (int index = 0; index < count; index++) {
    png_write_chunk_data(png, parts[index].data, parts[index].size);
    free(parts[index].data);
    parts[index].data = NULL;
  }
  png_write_chunk_data(png, trailer, 4);
  png_write_chunk_end(png);
  png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
  png_structp png_copy = png;
  png_infop info_copy = info;
  png_destroy_write_struct(&png_copy, &info_copy);
  *out = output->data;
  *out_size = output->size;
  free(output);
  return MEMESH_OK;
}

// MARK: - Thumbnail

/// Where each target column's source columns start (`width + 1` entries, the last = width).
static uint32_t *column_spans(uint32_t source_width, uint32_t target_width) {
  uint32_t *starts = malloc(sizeof(uint32_t) * ((size_t)target_width + 1));
  if (starts == NULL) return NULL;
  for (uint32_t column = 0; column <= target_width; column++) {
    starts[column] = (uint32_t)((uint64_t)column * source_width / target_width);
  }
  // A target wider than the source still reads at least one column.
  for (uint32_t column = 0; column < target_width; column++) {
    if (starts[column + 1] <= starts[column]) starts[column + 1] = starts[column] + 1;
    if (starts[column + 1] > source_width) starts[column + 1] = source_width;
  }
  return starts;
}

static int downscale_band(const memesh_rows *image, uint32_t out_width, uint32_t out_height,
                          uint32_t first_row, uint32_t end_row, uint8_t *out,
                          memesh_progress *progress);

void memesh_downscale_rows(const memesh_rows *image, uint32_t out_width, uint32_t out_height,
                           uint8_t *out) {
  downscale_band(image, out_width, out_height, 0, out_height, out, NULL);
}

void memesh_downscale_band(const memesh_rows *image, uint32_t out_width, uint32_t out_height,
                           uint32_t first_row, uint32_t end_row, uint8_t *out) {
  downscale_band(image, out_width, out_height, first_row, end_row, out, NULL);
}

int memesh_downscale_following(const memesh_rows *image, uint32_t out_width,
                               uint32_t out_height, uint8_t *out, memesh_progress *progress) {
  return downscale_band(image, out_width, out_height, 0, out_height, out, progress);
}

/// The band's target rows; with `progress`, each waits for its source rows to be decoded.
/// 0 when the decode ended without them (nothing more is written).
static int downscale_band(const memesh_rows *image, uint32_t out_width, uint32_t out_height,
                          uint32_t first_row, uint32_t end_row, uint8_t *out,
                          memesh_progress *progress) {
  if (end_row > out_height) end_row = out_height;
  if (out_width == 0 || out_height == 0 || image->width == 0 || image->height == 0 ||
      first_row >= end_row) {
    return 1;
  }
  size_t samples = (size_t)image->width * 4;
  uint32_t *starts = column_spans(image->width, out_width);
  int opaque = memesh_rows_opaque(image);
  // Column sums of the source rows that make one target row: 32-bit for plain bytes, 64-bit
  // for alpha-weighted ones.
  uint32_t *plain = opaque ? calloc(samples, sizeof(uint32_t)) : NULL;
  uint64_t *weighted = opaque ? NULL : calloc(samples, sizeof(uint64_t));
  uint8_t *scratch = meme_row_scratch(image);
  if (starts == NULL || (plain == NULL && weighted == NULL) || missing_scratch(image, scratch)) {
    memset(out + (size_t)first_row * out_width * 4, 0,
           (size_t)out_width * (end_row - first_row) * 4);
    free(starts);
    free(plain);
    free(weighted);
    free(scratch);
    return 1;
  }
  // Tall opaque blocks (a thumbnail of a photo) add every other row: half the work, no visible
  // difference at that size.
  uint32_t step = opaque && image->height / out_height >= 6 ? 2 : 1;
  // The source row where the band starts, found as the loop below would reach it.
  uint32_t row = 0;
  for (uint32_t target_row = 0; target_row < first_row; target_row++) {
    uint32_t end = (uint32_t)((uint64_t)(target_row + 1) * image->height / out_height);
    if (end <= row) end = row + 1 <= image->height ? row + 1 : row;
    row = end;
  }
  int complete = 1;
  for (uint32_t target_row = first_row; target_row < end_row; target_row++) {
    uint32_t end = (uint32_t)((uint64_t)(target_row + 1) * image->height / out_height);
    if (end <= row) end = row + 1 <= image->height ? row + 1 : row;
    if (progress != NULL && !memesh_progress_wait(progress, end)) {
      complete = 0;
      break;
    }
    uint64_t rows = 0;
    // Vertical: add whole rows (contiguous, so these loops vectorize).
    for (uint32_t sampled = row; sampled < end; sampled += step, rows++) {
      const uint8_t *pixels = meme_row(image, sampled, scratch);
      if (opaque) {
        for (size_t index = 0; index < samples; index++) plain[index] += pixels[index];
      } else {
        for (size_t index = 0; index < samples; index += 4) {
          uint64_t alpha = pixels[index + 3];
          weighted[index] += pixels[index] * alpha;
          weighted[index + 1] += pixels[index + 1] * alpha;
          weighted[index + 2] += pixels[index + 2] * alpha;
          weighted[index + 3] += alpha;
        }
      }
    }
    row = end;
    // Horizontal: each target pixel sums its span of columns.
    uint8_t *target = out + (size_t)target_row * out_width * 4;
    for (uint32_t column = 0; column < out_width; column++) {
      uint64_t sum[4] = {0, 0, 0, 0};
      if (opaque) {
        uint32_t red = 0, green = 0, blue = 0;
        for (uint32_t x = starts[column]; x < starts[column + 1]; x++) {
          red += plain[(size_t)x * 4];
          green += plain[(size_t)x * 4 + 1];
          blue += plain[(size_t)x * 4 + 2];
        }
        sum[0] = red;
        sum[1] = green;
        sum[2] = blue;
      } else {
        for (uint32_t x = starts[column]; x < starts[column + 1]; x++) {
          for (int channel = 0; channel < 4; channel++) {
            sum[channel] += weighted[(size_t)x * 4 + channel];
          }
        }
      }
      uint64_t pixels = rows * (starts[column + 1] - starts[column]);
      if (pixels == 0 || (!opaque && sum[3] == 0)) {
        memset(target + column * 4, 0, 4);
        continue;
      }
      uint64_t divisor = opaque ? pixels : sum[3];
      for (int channel = 0; channel < 3; channel++) {
        target[column * 4 + channel] = (uint8_t)((sum[channel] + divisor / 2) / divisor);
      }
      target[column * 4 + 3] = opaque ? 255 : (uint8_t)((sum[3] + pixels / 2) / pixels);
    }
    if (opaque) memset(plain, 0, samples * sizeof(uint32_t));
    else memset(weighted, 0, samples * sizeof(uint64_t));
  }
  free(starts);
  free(plain);
  free(weighted);
  free(scratch);
  return complete;
}
