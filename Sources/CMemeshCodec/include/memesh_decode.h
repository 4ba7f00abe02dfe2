#ifndef MEMESH_DECODE_H
#define MEMESH_DECODE_H
#include <stddef.h>
#include <stdint.h>

#include "memesh_codec.h"

/* PNG and JPEG decoding. Why C: libpng and libjpeg report fatal errors with longjmp, which
   Swift cannot catch, so every call that can fail lives here and returns a status with a
   message instead. Nothing here prints: library messages are collected and handed to Swift.
   (libwebp and giflib return status codes and are called from Swift directly.) */

// MARK: - Decoding

/// A libpng or libjpeg decoder in progress; opaque so Swift never sees libpng or libjpeg state.
typedef struct memesh_decoder memesh_decoder;

/// Allocates an empty decoder (NULL when out of memory); free with memesh_decoder_free.
memesh_decoder *memesh_decoder_new(void);
/// Frees the decoder and every library structure it holds.
void memesh_decoder_free(memesh_decoder *decoder);

/// Reads a PNG header from `data` (which must stay valid until memesh_decoder_read returns) and
/// sets libpng up to produce RGBA8; refuses images with more than `max_pixels` pixels.
int memesh_decoder_open_png(memesh_decoder *decoder, const uint8_t *data, size_t size,
                            uint64_t max_pixels);
/// Reads a JPEG header; `scale_denom` 1…8 asks libjpeg for a DCT-scaled (smaller) output;
/// refuses images over `max_pixels` and, while decoding, files with more than `max_scans` scans.
int memesh_decoder_open_jpeg(memesh_decoder *decoder, const uint8_t *data, size_t size,
                             uint64_t max_pixels, int max_scans, int scale_denom);
/// Asks libjpeg for a DCT-scaled output (1/`scale_denom` of the size, 1…8) after opening a JPEG;
/// other formats keep their size.
int memesh_decoder_scale(memesh_decoder *decoder, int scale_denom);
/// Output width after memesh_decoder_open_*.
uint32_t memesh_decoder_width(const memesh_decoder *decoder);
/// Output height after memesh_decoder_open_*.
uint32_t memesh_decoder_height(const memesh_decoder *decoder);
/// Width of the stored image (before DCT scaling).
uint32_t memesh_decoder_source_width(const memesh_decoder *decoder);
/// Height of the stored image (before DCT scaling).
uint32_t memesh_decoder_source_height(const memesh_decoder *decoder);
/// Decodes every pixel into `rgba` (width * height * 4 bytes, rows without padding).
int memesh_decoder_read(memesh_decoder *decoder, uint8_t *rgba);
/// Lets memesh_decoder_read take at most `seconds` (0: no limit): it checks the clock as libpng
/// asks for more image data and as libjpeg reports its progress, and fails once past it.
void memesh_decoder_limit_time(memesh_decoder *decoder, double seconds);
/// 1 when memesh_decoder_read stopped at its time limit.
int memesh_decoder_over_time(const memesh_decoder *decoder);
/// 1 when memesh_decoder_open_* refused the picture for its size (no pixels, or more than
/// `max_pixels`); memesh_decoder_source_width/height then give the size it has.
int memesh_decoder_over_limit(const memesh_decoder *decoder);
/// The library's reason for the last failure (empty when none).
const char *memesh_decoder_message(const memesh_decoder *decoder);
/// How many distinct warnings the library gave (at most a handful are kept).
int memesh_decoder_warning_count(const memesh_decoder *decoder);
/// Warning `index`, 0 ≤ index < memesh_decoder_warning_count.
const char *memesh_decoder_warning(const memesh_decoder *decoder, int index);
/// The EXIF TIFF structure, or NULL; valid until freed: a JPEG's first APP1 "Exif" payload, a
/// PNG's eXIf chunk when it comes before the image data.
const uint8_t *memesh_decoder_exif(const memesh_decoder *decoder, size_t *size);
/// The memesh recipe (PNG iTXt `memesh:recipe` or JPEG COM `memesh:recipe …`), or NULL.
const uint8_t *memesh_decoder_recipe(const memesh_decoder *decoder, size_t *size);
/// The embedded ICC colour profile when it is a whole RGB profile (JPEG APP2 markers, PNG
/// iCCP), or NULL: what memesh carries into the meme so the photo keeps its colours.
const uint8_t *memesh_decoder_icc(const memesh_decoder *decoder, size_t *size);
/// Whether `icc` is a whole ICC profile (its declared size, the 'acsp' signature) whose data
/// colour space is RGB, the only kind that describes memesh's RGB output.
int memesh_icc_is_rgb(const uint8_t *icc, size_t size);

// MARK: - Following a decode

/// How far a decode has come, for a thread reading the rows as they are finished (the load's
/// proxy). One per decode; free it after both sides are done with it.
typedef struct memesh_progress memesh_progress;

/// A fresh progress (NULL when out of memory).
memesh_progress *memesh_progress_new(void);
void memesh_progress_free(memesh_progress *progress);
/// Makes memesh_decoder_read publish each finished row to `progress`, and its end.
void memesh_decoder_report_progress(memesh_decoder *decoder, memesh_progress *progress);
/// Marks the decode ended (failed when `failed`) unless memesh_decoder_read already did, so a
/// waiting reader is let go whatever happened.
void memesh_progress_finish(memesh_progress *progress, int failed);
/// Waits until the first `rows` rows are final (1), or the decode ended without them (0).
int memesh_progress_wait(memesh_progress *progress, uint32_t rows);

/// Maps in the whole pages of `size` bytes at `start` for writing, without changing a byte
/// (Linux MADV_POPULATE_WRITE), so a decoder filling them later takes no page faults; safe
/// while another thread writes there. Does nothing where the kernel cannot.
void memesh_prefault(void *start, size_t size);

#endif
