#ifndef MEMESH_SPLICE_H
#define MEMESH_SPLICE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memesh_encode.h"

/* Captions spliced into a baseline JPEG without re-encoding the photo.

   Why C: the splicer walks every Huffman code of a 12-MP photo's entropy-coded data (about 4
   million symbols) and copies it bit by bit; that is a tight loop over untrusted bytes with
   64-bit shifts and table lookups, and the touched bands go through libjpeg, whose errors
   longjmp. Swift can do neither at this speed nor catch the longjmp.

   How: the scan is indexed MCU by MCU (bit offset and DC predictors at each MCU, no IDCT).
   Rows of MCUs no caption touches are copied as entropy-coded bits, re-aligned to the bit, with
   the first block's DC difference re-coded at a seam; the touched rows are decoded by libjpeg
   (from a small JPEG of just those rows), the captions drawn, encoded by libjpeg with the
   source's quantization tables and sampling, and their coefficients Huffman-coded again with
   the source's own tables. Every block outside the touched rows keeps its exact coefficients. */

/// Why a JPEG cannot be spliced (MEMESH_SPLICE_OK: it can). memesh then encodes it as before.
typedef enum memesh_splice_refusal {
  MEMESH_SPLICE_OK = 0,
  MEMESH_SPLICE_NOT_JPEG,
  MEMESH_SPLICE_PROGRESSIVE,
  MEMESH_SPLICE_ARITHMETIC,
  MEMESH_SPLICE_CMYK,
  /// Restart markers inside rows of MCUs (markers at the ends of rows are followed).
  MEMESH_SPLICE_RESTARTS,
  /// Lossless, hierarchical, 12-bit, or a frame with an unusual number of components.
  MEMESH_SPLICE_UNSUPPORTED_FRAME,
  /// More than one scan (components coded in separate scans).
  MEMESH_SPLICE_SEVERAL_SCANS,
  /// An RGB (not YCbCr) JPEG.
  MEMESH_SPLICE_RGB_COLOURS,
  /// The crop's left or top edge is not on an MCU boundary.
  MEMESH_SPLICE_UNALIGNED_CROP,
  /// The source's Huffman tables have no code for a value the captions' rows need.
  MEMESH_SPLICE_TABLES,
  /// Markers or entropy-coded data that do not add up (libjpeg may still decode it).
  MEMESH_SPLICE_DAMAGED,
  /// Larger than the caller's pixel limit.
  MEMESH_SPLICE_TOO_LARGE,
  /// Out of memory, or libjpeg failed on a band.
  MEMESH_SPLICE_FAILED,
} memesh_splice_refusal;

/// What memesh_splice_inspect finds in a JPEG's headers.
typedef struct memesh_splice_layout {
  uint32_t width, height;
  /// One MCU in pixels (8 or 16 for common sampling).
  uint32_t mcu_width, mcu_height;
  uint32_t mcus_across, mcu_rows;
  /// Where the first EXIF APP1's TIFF data is in the file (size 0: none).
  size_t exif_offset, exif_size;
  /// Where the text of the first "memesh:recipe …" comment is (size 0: none).
  size_t recipe_offset, recipe_size;
} memesh_splice_layout;

/// Reads the headers only: whether the JPEG can be spliced, and its MCU grid.
memesh_splice_refusal memesh_splice_inspect(const uint8_t *jpeg, size_t size,
                                            memesh_splice_layout *layout);

/// What to splice: the crop (left and top on MCU boundaries), the captions, the recipe.
typedef struct memesh_splice_request {
  uint32_t crop_x, crop_y, crop_width, crop_height;
  /// The captions, in the crop's coordinates; the MCU rows their layers' regions reach are
  /// re-encoded.
  const memesh_overlay *overlay;
  /// Written as a COM segment "memesh:recipe …" (a source's own memesh recipe is dropped).
  const char *recipe;
  /// Refuse a picture with more pixels than this.
  uint64_t max_pixels;
} memesh_splice_request;

/// What a splice made, and how long each part took.
typedef struct memesh_splice_result {
  /// The spliced JPEG (malloc'd; free with memesh_splice_free).
  uint8_t *jpeg;
  size_t jpeg_size;
  uint32_t mcu_rows, touched_rows;
  /// Nanoseconds: indexing the entropy-coded data; decoding, drawing and encoding the touched
  /// rows; writing the file.
  uint64_t scan_ns, band_ns, write_ns;
} memesh_splice_result;

/// Splices the captions into `jpeg`. MEMESH_SPLICE_OK and `result` filled, or why not (with
/// `message` saying more for DAMAGED and FAILED).
memesh_splice_refusal memesh_splice_jpeg(const uint8_t *jpeg, size_t size,
                                         const memesh_splice_request *request,
                                         memesh_splice_result *result, char *message,
                                         size_t message_size);

/// A JPEG opened for splicing: headers read and the scan indexed. It reads the headers and the
/// entropy-coded data where the caller keeps them (no copy of the scan): the `jpeg` bytes given
/// to memesh_splice_open must stay allocated and unchanged until memesh_splice_close.
typedef struct memesh_splice_source memesh_splice_source;

/// Reads the headers and indexes the scan (every Huffman code read once, on two threads when
/// the scan is large: about as long as libjpeg's entropy decoding, with no IDCT); `*scan_ns`
/// (or NULL) gets how long it took. The source can then be spliced any number of times.
/// MEMESH_SPLICE_OK proves the coded data whole. `threads` 0: what the second thread indexed is
/// used when it is ready in time; 2: the first thread waits at the start for every run the
/// second would begin, and then always uses them (tests).
memesh_splice_refusal memesh_splice_open(const uint8_t *jpeg, size_t size, uint64_t max_pixels,
                                         int threads, memesh_splice_source **source,
                                         uint64_t *scan_ns);

/// The first MCU (row-major) the second thread indexed, 0 when one thread indexed them all.
uint32_t memesh_splice_tail_mcu(const memesh_splice_source *source);

/// Frees an opened source (NULL is fine).
void memesh_splice_close(memesh_splice_source *source);

/// memesh_splice_jpeg on an opened source (`request->max_pixels` is not used; `scan_ns` is 0).
memesh_splice_refusal memesh_splice_write(const memesh_splice_source *source,
                                          const memesh_splice_request *request,
                                          memesh_splice_result *result, char *message,
                                          size_t message_size);

/// The crop at 1/8 scale from the DC coefficients the index holds (no decoding): one RGBA8
/// pixel per 8×8 pixels, (crop_width + 7) / 8 × (crop_height + 7) / 8 of them, written to
/// `pixels`. Reads only the source: any thread may, while another splices it. False for a crop
/// outside the photo, or out of memory.
bool memesh_splice_preview(const memesh_splice_source *source, uint32_t crop_x, uint32_t crop_y,
                           uint32_t crop_width, uint32_t crop_height, uint8_t *pixels);

/// Frees what memesh_splice_jpeg allocated (NULL is fine).
void memesh_splice_free(void *pointer);

#endif
