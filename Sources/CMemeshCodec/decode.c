#include "memesh_decode.h"

#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>
#include <libdeflate.h>
#include <png.h>

enum { MESSAGE_SIZE = 256, MAX_WARNINGS = 8 };

static const char recipe_keyword[] = MEMESH_RECIPE_KEYWORD;

// MARK: - Collected messages

/// Where a library's fatal error jumps to, with its reason and the warnings seen so far.
struct failure {
  jmp_buf jump;
  char message[MESSAGE_SIZE];
  char warnings[MAX_WARNINGS][MESSAGE_SIZE];
  int warning_count;
  /// libjpeg ran out of bytes (and fed itself an end-of-image marker from there on).
  int input_ended;
};

static void set_message(struct failure *failure, const char *text) {
  snprintf(failure->message, sizeof failure->message, "%s", text);
}

/// Keeps a warning once, so a corrupt file repeating one complaint shows it once.
static void add_warning(struct failure *failure, const char *text) {
  for (int index = 0; index < failure->warning_count; index++) {
    if (strcmp(failure->warnings[index], text) == 0) return;
  }
  if (failure->warning_count >= MAX_WARNINGS) return;
  snprintf(failure->warnings[failure->warning_count], MESSAGE_SIZE, "%s", text);
  failure->warning_count++;
}

/// Adds "damaged after the image data: <reason>" as a warning, the reason's first letter
/// lowercased unless it starts an acronym ("IEND"), and clears the failure.
static void warn_damage_after_image(struct failure *failure) {
  char reason[MESSAGE_SIZE];
  snprintf(reason, sizeof reason, "%s", failure->message);
  if (reason[0] >= 'A' && reason[0] <= 'Z' && !(reason[1] >= 'A' && reason[1] <= 'Z')) {
    reason[0] = (char)(reason[0] - 'A' + 'a');
  }
  char text[MESSAGE_SIZE];
  snprintf(text, sizeof text, "damaged after the image data: %s", reason);
  failure->message[0] = 0;
  add_warning(failure, text);
}

// MARK: - Decoder state

struct memesh_decoder {
  struct failure failure;
  int kind;  // 0 none, 1 PNG, 2 JPEG
  uint32_t width, height, source_width, source_height;
  uint8_t *recipe;
  size_t recipe_size;
  uint8_t *exif;
  size_t exif_size;
  uint8_t *icc;
  size_t icc_size;
  int icc_tried;
  int over_limit;  // refused by check_pixels: source_width × source_height is over the cap
  double time_limit;  // seconds memesh_decoder_read may take (0: no limit)
  double deadline;    // CLOCK_MONOTONIC seconds when memesh_decoder_read must stop (0: none)
  int over_time;      // memesh_decoder_read stopped at the deadline
  // PNG
  int png_image_started;  // png_read_info is done: later chunks come after the image data
  png_structp png;
  png_infop png_info;
  const uint8_t *data;
  size_t size, offset;
  // JPEG
  struct jpeg_decompress_struct jpeg;
  struct jpeg_error_mgr jpeg_error;
  struct jpeg_progress_mgr jpeg_progress;
  int jpeg_created;
  int max_scans;
  int cmyk, adobe_inverted;
  memesh_progress *progress;  // or NULL
};

// MARK: - Progress

struct memesh_progress {
  atomic_uint rows;  // rows final in the pixel buffer, top down
  atomic_int done;   // 0 decoding, 1 finished, 2 failed
};

memesh_progress *memesh_progress_new(void) {
  memesh_progress *progress = malloc(sizeof *progress);
  if (progress == NULL) return NULL;
  atomic_init(&progress->rows, 0);
  atomic_init(&progress->done, 0);
  return progress;
}

void memesh_progress_free(memesh_progress *progress) { free(progress); }

void memesh_decoder_report_progress(memesh_decoder *decoder, memesh_progress *progress) {
  decoder->progress = progress;
}

static void progress_rows(memesh_progress *progress, uint32_t rows) {
  if (progress != NULL) atomic_store_explicit(&progress->rows, rows, memory_order_release);
}

static void progress_done(memesh_progress *progress, int status) {
  if (progress != NULL) {
    atomic_store_explicit(&progress->done, status == MEMESH_OK ? 1 : 2, memory_order_release);
  }
}

void memesh_progress_finish(memesh_progress *progress, int failed) {
  if (progress == NULL) return;
  int expected = 0;
  atomic_compare_exchange_strong_explicit(&progress->done, &expected, failed ? 2 : 1,
                                          memory_order_acq_rel, memory_order_acquire);
}

int memesh_progress_wait(memesh_progress *progress, uint32_t rows) {
  for (unsigned spins = 0;; spins++) {
    // Rows first: a finished decode has published its last rows before `done`.
    int done = atomic_load_explicit(&progress->done, memory_order_acquire);
    if (atomic_load_explicit(&progress->rows, memory_order_acquire) >= rows) return 1;
    if (done != 0) return 0;
    if (spins < 16) {
      sched_yield();
    } else {
      // The decoder makes a row in some 20 µs on 12 MP: a nap of a few rows.
      struct timespec nap = {0, 100000};
      nanosleep(&nap, NULL);
    }
  }
}

memesh_decoder *memesh_decoder_new(void) { return calloc(1, sizeof(memesh_decoder)); }

void memesh_decoder_free(memesh_decoder *decoder) {
  if (decoder == NULL) return;
  if (decoder->png != NULL) png_destroy_read_struct(&decoder->png, &decoder->png_info, NULL);
  if (decoder->jpeg_created) jpeg_destroy_decompress(&decoder->jpeg);
  free(decoder->recipe);
  free(decoder->exif);
  free(decoder->icc);
  free(decoder);
}

uint32_t memesh_decoder_width(const memesh_decoder *decoder) { return decoder->width; }
uint32_t memesh_decoder_height(const memesh_decoder *decoder) { return decoder->height; }
uint32_t memesh_decoder_source_width(const memesh_decoder *decoder) {
  return decoder->source_width;
}
uint32_t memesh_decoder_source_height(const memesh_decoder *decoder) {
  return decoder->source_height;
}
const char *memesh_decoder_message(const memesh_decoder *decoder) {
  return decoder->failure.message;
}
int memesh_decoder_warning_count(const memesh_decoder *decoder) {
  return decoder->failure.warning_count;
}
const char *memesh_decoder_warning(const memesh_decoder *decoder, int index) {
  if (index < 0 || index >= decoder->failure.warning_count) return "";
  return decoder->failure.warnings[index];
}
const uint8_t *memesh_decoder_exif(const memesh_decoder *decoder, size_t *size) {
  *size = decoder->exif_size;
  return decoder->exif;
}
const uint8_t *memesh_decoder_recipe(const memesh_decoder *decoder, size_t *size) {
  *size = decoder->recipe_size;
  return decoder->recipe;
}

const uint8_t *memesh_decoder_icc(const memesh_decoder *decoder, size_t *size) {
  *size = decoder->icc_size;
  return decoder->icc;
}

enum { MAX_ICC_SIZE = 4 * 1024 * 1024 };

int memesh_icc_is_rgb(const uint8_t *icc, size_t size) {
  if (icc == NULL || size < 132 || size > MAX_ICC_SIZE) return 0;
  uint32_t declared =
      (uint32_t)icc[0] << 24 | (uint32_t)icc[1] << 16 | (uint32_t)icc[2] << 8 | icc[3];
  return declared == size && memcmp(icc + 36, "acsp", 4) == 0 && memcmp(icc + 16, "RGB ", 4) == 0;
}

/// Copies `size` bytes so they outlive the library structure they came from.
static uint8_t *copy_bytes(const void *bytes, size_t size) {
  uint8_t *copy = malloc(size + 1);
  if (copy == NULL) return NULL;
  memcpy(copy, bytes, size);
  copy[size] = 0;
  return copy;
}

/// Refuses sizes over the pixel cap before anything large is allocated. The stored size is
/// kept, so Swift words the refusal the way it does for every format (DecodeLimits.check).
static int check_pixels(memesh_decoder *decoder, uint64_t width, uint64_t height,
                        uint64_t max_pixels) {
  if (width != 0 && height != 0 && width * height <= max_pixels) return MEMESH_OK;
  decoder->source_width = (uint32_t)width;
  decoder->source_height = (uint32_t)height;
  decoder->over_limit = 1;
  set_message(&decoder->failure, "the picture is over the pixel limit");
  return MEMESH_ERROR;
}

int memesh_decoder_over_limit(const memesh_decoder *decoder) { return decoder->over_limit; }

// MARK: - Time limit

static double monotonic_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

void memesh_decoder_limit_time(memesh_decoder *decoder, double seconds) {
  decoder->time_limit = seconds > 0 ? seconds : 0;
}

int memesh_decoder_over_time(const memesh_decoder *decoder) { return decoder->over_time; }

/// Whether memesh_decoder_read has run past its deadline; the failure then says so.
static int past_deadline(memesh_decoder *decoder) {
  if (decoder->deadline == 0 || monotonic_seconds() < decoder->deadline) return 0;
  decoder->over_time = 1;
  set_message(&decoder->failure, "decoding took longer than its time limit");
  return 1;
}

// MARK: - PNG decoding

static void png_error_function(png_structp png, png_const_charp text) {
  struct failure *failure = png_get_error_ptr(png);
  set_message(failure, text);
  // libpng says what is wrong with a header in warnings, then fails with "Invalid IHDR data".
  if (strcmp(text, "Invalid IHDR data") == 0 && failure->warning_count > 0) {
    char detail[MESSAGE_SIZE];
    snprintf(detail, sizeof detail, "%s", failure->warnings[failure->warning_count - 1]);
    if (detail[0] >= 'A' && detail[0] <= 'Z') detail[0] = (char)(detail[0] - 'A' + 'a');
    snprintf(failure->message, sizeof failure->message, "%s: %s", text, detail);
  }
  png_longjmp(png, 1);
}

static void png_warning_function(png_structp png, png_const_charp text) {
  struct failure *failure = png_get_error_ptr(png);
  // A chunk longer than png_set_chunk_malloc_max is only a benign error, which reading turns
  // into this warning, and libpng then allocates the chunk anyway: a 600-byte file whose iTXt
  // claims 1.9 GB cost 1.9 GB and seconds (found by fuzzing). Refuse the file instead.
  if (strstr(text, "chunk data is too large") != NULL) png_error(png, text);
  add_warning(failure, text);
}

/// libpng's source of bytes; while the pixels are read it is called for each piece of image
/// data, which is where the time limit is checked.
static void png_read_function(png_structp png, png_bytep target, size_t length) {
  memesh_decoder *decoder = png_get_io_ptr(png);
  // The failure already says why; png_error copies its text into it, so not from it.
  if (past_deadline(decoder)) png_error(png, "decoding took longer than its time limit");
  if (length > decoder->size - decoder->offset) png_error(png, "the file ends early");
  memcpy(target, decoder->data + decoder->offset, length);
  decoder->offset += length;
}

/// Keeps the first iCCP profile (keyword, NUL, method 0, zlib data) when it inflates, within
/// MAX_ICC_SIZE, to a whole RGB profile. Only the first iCCP chunk is looked at and libdeflate
/// stops at the bound, so a compressed bomb costs at most that much work once; anything else is
/// left out silently, as libpng would.
static void png_icc_chunk(memesh_decoder *decoder, const uint8_t *data, size_t size) {
  if (decoder->icc_tried) return;
  decoder->icc_tried = 1;
  if (size < 3) return;
  const uint8_t *nul = memchr(data, 0, size < 81 ? size : 81);
  if (nul == NULL || nul == data || (size_t)(nul - data) + 2 > size || nul[1] != 0) return;
  const uint8_t *compressed = nul + 2;
  size_t compressed_size = size - (size_t)(compressed - data);
  struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
  uint8_t *profile = malloc(MAX_ICC_SIZE);
  size_t profile_size = 0;
  if (inflater != NULL && profile != NULL &&
      libdeflate_zlib_decompress(inflater, compressed, compressed_size, profile, MAX_ICC_SIZE,
                                 &profile_size) == LIBDEFLATE_SUCCESS &&
      memesh_icc_is_rgb(profile, profile_size)) {
    decoder->icc = copy_bytes(profile, profile_size);
    if (decoder->icc != NULL) decoder->icc_size = profile_size;
  }
  free(profile);
  if (inflater != NULL) libdeflate_free_decompressor(inflater);
}

/// libpng hands every chunk it does not decode itself here, as raw bytes. Keeps the first
/// uncompressed iTXt `memesh:recipe` (the form memesh writes); drops every other ancillary
/// chunk (1: handled, libpng keeps nothing); an unknown critical chunk is an error, as libpng
/// makes it without a callback.
static int png_recipe_chunk(png_structp png, png_unknown_chunkp chunk) {
  memesh_decoder *decoder = png_get_user_chunk_ptr(png);
  if ((chunk->name[0] & 0x20) == 0) png_chunk_error(png, "unhandled critical chunk");
  if (memcmp(chunk->name, "iCCP", 4) == 0) {
    png_icc_chunk(decoder, chunk->data, chunk->size);
    return 1;
  }
  // EXIF (its orientation) counts only before the image data, as browsers read it.
  if (memcmp(chunk->name, "eXIf", 4) == 0) {
    if (decoder->exif == NULL && !decoder->png_image_started && chunk->size > 0) {
      decoder->exif = copy_bytes(chunk->data, chunk->size);
      if (decoder->exif != NULL) decoder->exif_size = chunk->size;
    }
    return 1;
  }
  if (memcmp(chunk->name, "iTXt", 4) != 0) return 1;
  size_t keyword = sizeof recipe_keyword;  // with its NUL
  if (decoder->recipe != NULL || chunk->size < keyword + 2 ||
      memcmp(chunk->data, recipe_keyword, keyword) != 0) {
    return 1;
  }
  const uint8_t *cursor = chunk->data + keyword, *end = chunk->data + chunk->size;
  if (cursor[0] != 0) return 1;  // compressed: not written by memesh, never inflated
  cursor += 2;
  for (int field = 0; field < 2; field++) {  // language tag, translated keyword
    const uint8_t *nul = memchr(cursor, 0, (size_t)(end - cursor));
    if (nul == NULL) return 1;
    cursor = nul + 1;
  }
  decoder->recipe = copy_bytes(cursor, (size_t)(end - cursor));
  if (decoder->recipe != NULL) decoder->recipe_size = (size_t)(end - cursor);
  return 1;
}

int memesh_decoder_open_png(memesh_decoder *decoder, const uint8_t *data, size_t size,
                            uint64_t max_pixels) {
  decoder->kind = 1;
  decoder->data = data;
  decoder->size = size;
  decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->failure,
                                        png_error_function, png_warning_function);
  if (decoder->png == NULL) {
    set_message(&decoder->failure, "out of memory");
    return MEMESH_ERROR;
  }
  decoder->png_info = png_create_info_struct(decoder->png);
  if (decoder->png_info == NULL) {
    set_message(&decoder->failure, "out of memory");
    return MEMESH_ERROR;
  }
  if (setjmp(png_jmpbuf(decoder->png))) return MEMESH_ERROR;

  png_set_read_fn(decoder->png, decoder, png_read_function);
  // Any side PNG allows (libpng's default stops at 1,000,000): the pixel cap below decides,
  // with one message whatever the shape.
  png_set_user_limits(decoder->png, 0x7fffffffu, 0x7fffffffu);
  png_set_chunk_cache_max(decoder->png, 128);
  png_set_chunk_malloc_max(decoder->png, 4 * 1024 * 1024);
  // Ancillary chunks memesh does not use (gAMA, iCCP, tEXt, zTXt …) are skipped unread, so a
  // compressed one is never inflated. iTXt goes to png_recipe_chunk as raw bytes: only an
  // uncompressed `memesh:recipe` is kept, nothing is inflated (inflating 200 compressed iTXt
  // chunks of 4 MB each would keep libpng busy for more than a second).
  png_set_keep_unknown_chunks(decoder->png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
  static const png_byte kept[] = "iTXt\0iCCP\0eXIf";
  png_set_keep_unknown_chunks(decoder->png, PNG_HANDLE_CHUNK_ALWAYS, kept, 3);
  png_set_read_user_chunk_fn(decoder->png, decoder, png_recipe_chunk);

  png_read_info(decoder->png, decoder->png_info);
  decoder->png_image_started = 1;
  png_uint_32 width = 0, height = 0;
  int bit_depth = 0, color_type = 0;
  png_get_IHDR(decoder->png, decoder->png_info, &width, &height, &bit_depth, &color_type, NULL,
               NULL, NULL);
  if (check_pixels(decoder, width, height, max_pixels) != MEMESH_OK) {
    return MEMESH_ERROR;
  }
  int has_transparency = png_get_valid(decoder->png, decoder->png_info, PNG_INFO_tRNS) != 0;
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(decoder->png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) {
    png_set_expand_gray_1_2_4_to_8(decoder->png);
  }
  if (has_transparency) png_set_tRNS_to_alpha(decoder->png);
  // Rounds (v * 255 / 65535) instead of dropping the low byte.
  if (bit_depth == 16) png_set_scale_16(decoder->png);
  if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(decoder->png);
  if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_transparency) {
    png_set_add_alpha(decoder->png, 0xff, PNG_FILLER_AFTER);
  }
  png_set_interlace_handling(decoder->png);
  png_read_update_info(decoder->png, decoder->png_info);
  if (png_get_rowbytes(decoder->png, decoder->png_info) != (size_t)width * 4) {
    set_message(&decoder->failure, "libpng could not convert the pixels to RGBA");
    return MEMESH_ERROR;
  }
  decoder->width = decoder->source_width = width;
  decoder->height = decoder->source_height = height;
  return MEMESH_OK;
}

static int png_read_pixels(memesh_decoder *decoder, uint8_t *rgba) {
  png_bytep *volatile rows = NULL;
  if (setjmp(png_jmpbuf(decoder->png))) {
    free(rows);
    return MEMESH_ERROR;
  }
  png_bytep *new_rows = malloc((size_t)decoder->height * sizeof(png_bytep));
  if (new_rows == NULL) png_error(decoder->png, "out of memory");
  rows = new_rows;
  for (size_t row = 0; row < decoder->height; row++) {
    new_rows[row] = rgba + row * (size_t)decoder->width * 4;
  }
  png_read_image(decoder->png, new_rows);
  rows = NULL;
  free(new_rows);

  // Every pixel is in: a file cut or damaged after the image data still loads, with a warning
  // (and the time limit no longer applies).
  decoder->deadline = 0;
  if (setjmp(png_jmpbuf(decoder->png))) {
    warn_damage_after_image(&decoder->failure);
    return MEMESH_OK;
  }
  png_read_end(decoder->png, decoder->png_info);
  return MEMESH_OK;
}

// MARK: - JPEG decoding

/// A fatal error after the bytes ran out is the cut file's doing ("bogus DQT index 15",
/// "JPEG datastream contains no image" are libjpeg reading its own end marker as data): it is
/// said the way the PNG decoder says it.
static void jpeg_error_exit_function(j_common_ptr info) {
  struct failure *failure = info->client_data;
  char text[JMSG_LENGTH_MAX];
  (*info->err->format_message)(info, text);
  set_message(failure, failure->input_ended ? "the file ends early" : text);
  longjmp(failure->jump, 1);
}

/// Collects warnings (level < 0) instead of printing them; drops trace messages.
///
/// One warning is fatal: an inconsistent progression means a scan repeats or contradicts an
/// earlier one, which no encoder writes but which lets a small file keep libjpeg busy for
/// seconds per scan (libjpeg-turbo's advice for such callers is to treat it as an error).
static void jpeg_emit_message_function(j_common_ptr info, int level) {
  if (level >= 0) return;
  struct failure *failure = info->client_data;
  char text[JMSG_LENGTH_MAX];
  (*info->err->format_message)(info, text);
  if (info->is_decompressor && info->err->msg_code == JWRN_BOGUS_PROGRESSION) {
    snprintf(failure->message, MESSAGE_SIZE, "%s (a decompression bomb?)", text);
    longjmp(failure->jump, 1);
  }
  if (info->err->msg_code == JWRN_JPEG_EOF) failure->input_ended = 1;
  add_warning(failure, text);
  info->err->num_warnings++;
}

static void jpeg_silent_output(j_common_ptr info) { (void)info; }

/// Scans × pixels libjpeg may work through: each scan of a progressive file passes over the
/// whole picture (about 0.7 ms per megapixel here), so this keeps any file under about a
/// second while allowing the ~10 scans encoders write even at 100 megapixels.
static const uint64_t max_scan_pixels = 1600000000u;

/// Counts scans as libjpeg reads them: a progressive file with thousands of scans, or with
/// more scans than its size allows, is refused. libjpeg calls it every few rows of every pass,
/// which is where the time limit is checked.
static void jpeg_progress_function(j_common_ptr info) {
  if (!info->is_decompressor) return;
  memesh_decoder *decoder = info->client_data;
  if (past_deadline(decoder)) longjmp(decoder->failure.jump, 1);
  j_decompress_ptr jpeg = (j_decompress_ptr)info;
  int scan = jpeg->input_scan_number;
  uint64_t pixels = (uint64_t)jpeg->image_width * jpeg->image_height;
  if (scan > decoder->max_scans || (uint64_t)scan * pixels > max_scan_pixels) {
    int allowed = decoder->max_scans;
    if (pixels > 0 && max_scan_pixels / pixels < (uint64_t)allowed) {
      allowed = (int)(max_scan_pixels / pixels);
    }
    snprintf(decoder->failure.message, MESSAGE_SIZE,
             "the JPEG has more than %d scans (a decompression bomb?)", allowed);
    longjmp(decoder->failure.jump, 1);
  }
}

static void install_jpeg_errors(struct jpeg_error_mgr *error) {
  jpeg_std_error(error);
  error->error_exit = jpeg_error_exit_function;
  error->emit_message = jpeg_emit_message_function;
  error->output_message = jpeg_silent_output;
}

int memesh_decoder_open_jpeg(memesh_decoder *decoder, const uint8_t *data, size_t size,
                             uint64_t max_pixels, int max_scans, int scale_denom) {
  decoder->kind = 2;
  decoder->max_scans = max_scans;
  install_jpeg_errors(&decoder->jpeg_error);
  decoder->jpeg.err = &decoder->jpeg_error;
  if (setjmp(decoder->failure.jump)) return MEMESH_ERROR;
  jpeg_create_decompress(&decoder->jpeg);
  decoder->jpeg_created = 1;
  // The failure is the decoder's first member: libjpeg callbacks find both through this.
  decoder->jpeg.client_data = decoder;
  decoder->jpeg_progress.progress_monitor = jpeg_progress_function;
  decoder->jpeg.progress = &decoder->jpeg_progress;
  jpeg_mem_src(&decoder->jpeg, data, (unsigned long)size);
  jpeg_save_markers(&decoder->jpeg, JPEG_APP0 + 1, 0xffff);
  jpeg_save_markers(&decoder->jpeg, JPEG_APP0 + 2, 0xffff);
  jpeg_save_markers(&decoder->jpeg, JPEG_COM, 0xffff);
  jpeg_read_header(&decoder->jpeg, TRUE);

  if (check_pixels(decoder, decoder->jpeg.image_width, decoder->jpeg.image_height,
                   max_pixels) != MEMESH_OK) {
    return MEMESH_ERROR;
  }
  switch (decoder->jpeg.jpeg_color_space) {
  case JCS_GRAYSCALE:
  case JCS_RGB:
  case JCS_YCbCr:
    decoder->jpeg.out_color_space = JCS_EXT_RGBA;
    break;
  case JCS_CMYK:
  case JCS_YCCK:
    decoder->jpeg.out_color_space = JCS_CMYK;
    decoder->cmyk = 1;
    // Adobe's writers (and libjpeg, which always adds the APP14 marker) store inverted CMYK.
    decoder->adobe_inverted = decoder->jpeg.saw_Adobe_marker;
    break;
  default:
    snprintf(decoder->failure.message, MESSAGE_SIZE,
             "unsupported JPEG color space (%d components)", decoder->jpeg.num_components);
    return MEMESH_ERROR;
  }
  // The colour profile of an RGB photo (a CMYK or grayscale profile does not describe the RGB
  // meme, so it is not kept).
  JOCTET *icc = NULL;
  unsigned int icc_size = 0;
  if (!decoder->cmyk && decoder->jpeg.jpeg_color_space != JCS_GRAYSCALE &&
      jpeg_read_icc_profile(&decoder->jpeg, &icc, &icc_size) && memesh_icc_is_rgb(icc, icc_size)) {
    decoder->icc = icc;
    decoder->icc_size = icc_size;
  } else {
    free(icc);
  }
  decoder->source_width = decoder->jpeg.image_width;
  decoder->source_height = decoder->jpeg.image_height;
  if (memesh_decoder_scale(decoder, scale_denom) != MEMESH_OK) return MEMESH_ERROR;

  for (jpeg_saved_marker_ptr marker = decoder->jpeg.marker_list; marker != NULL;
       marker = marker->next) {
    if (marker->marker == JPEG_APP0 + 1 && decoder->exif == NULL && marker->data_length > 6 &&
        memcmp(marker->data, "Exif\0\0", 6) == 0) {
      decoder->exif = copy_bytes(marker->data + 6, marker->data_length - 6);
      if (decoder->exif != NULL) decoder->exif_size = marker->data_length - 6;
    }
    size_t prefix = sizeof recipe_keyword;  // keyword plus the space
    if (marker->marker == JPEG_COM && decoder->recipe == NULL && marker->data_length > prefix &&
        memcmp(marker->data, recipe_keyword, prefix - 1) == 0 &&
        marker->data[prefix - 1] == ' ') {
      decoder->recipe = copy_bytes(marker->data + prefix, marker->data_length - prefix);
      if (decoder->recipe != NULL) decoder->recipe_size = marker->data_length - prefix;
    }
  }
  return MEMESH_OK;
}

int memesh_decoder_scale(memesh_decoder *decoder, int scale_denom) {
  if (decoder->kind != 2) return MEMESH_OK;
  if (setjmp(decoder->failure.jump)) return MEMESH_ERROR;
  if (scale_denom < 1) scale_denom = 1;
  if (scale_denom > 8) scale_denom = 8;
  decoder->jpeg.scale_num = 1;
  decoder->jpeg.scale_denom = (unsigned int)scale_denom;
  jpeg_calc_output_dimensions(&decoder->jpeg);
  decoder->width = decoder->jpeg.output_width;
  decoder->height = decoder->jpeg.output_height;
  return MEMESH_OK;
}

/// 255 × 255 products back to 0…255, rounded.
static inline uint8_t multiply_255(unsigned a, unsigned b) {
  unsigned product = a * b + 128;
  return (uint8_t)((product + (product >> 8)) >> 8);
}

static void cmyk_to_rgba(uint8_t *pixels, size_t count, int inverted) {
  for (size_t index = 0; index < count; index++) {
    uint8_t *pixel = pixels + index * 4;
    unsigned c = pixel[0], m = pixel[1], y = pixel[2], k = pixel[3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    pixel[0] = multiply_255(c, k);
    pixel[1] = multiply_255(m, k);
    pixel[2] = multiply_255(y, k);
    pixel[3] = 255;
  }
}

static int jpeg_read_pixels(memesh_decoder *decoder, uint8_t *rgba) {
  if (setjmp(decoder->failure.jump)) return MEMESH_ERROR;
  jpeg_start_decompress(&decoder->jpeg);
  if (decoder->jpeg.output_components != 4 || decoder->jpeg.output_width != decoder->width ||
      decoder->jpeg.output_height != decoder->height) {
    set_message(&decoder->failure, "libjpeg could not convert the pixels to RGBA");
    return MEMESH_ERROR;
  }
  size_t row_bytes = (size_t)decoder->width * 4;
  while (decoder->jpeg.output_scanline < decoder->jpeg.output_height) {
    JSAMPROW rows[4];
    JDIMENSION first = decoder->jpeg.output_scanline;
    JDIMENSION count = decoder->jpeg.output_height - first;
    if (count > 4) count = 4;
    for (JDIMENSION index = 0; index < count; index++) {
      rows[index] = rgba + (first + index) * row_bytes;
    }
    JDIMENSION read = jpeg_read_scanlines(&decoder->jpeg, rows, count);
    if (read == 0) {
      set_message(&decoder->failure, "libjpeg stopped before the last row");
      return MEMESH_ERROR;
    }
    if (decoder->cmyk) cmyk_to_rgba(rows[0], (size_t)read * decoder->width, decoder->adobe_inverted);
    progress_rows(decoder->progress, first + read);
  }
  // Every pixel is in: damage after the image (a stray scan before EOI) loads, with a warning,
  // as the PNG decoder does (and the time limit no longer applies).
  decoder->deadline = 0;
  if (setjmp(decoder->failure.jump)) {
    warn_damage_after_image(&decoder->failure);
    return MEMESH_OK;
  }
  jpeg_finish_decompress(&decoder->jpeg);
  return MEMESH_OK;
}

int memesh_decoder_read(memesh_decoder *decoder, uint8_t *rgba) {
  decoder->deadline = decoder->time_limit > 0 ? monotonic_seconds() + decoder->time_limit : 0;
  int status;
  switch (decoder->kind) {
  case 1: status = png_read_pixels(decoder, rgba); break;
  case 2: status = jpeg_read_pixels(decoder, rgba); break;
  default:
    set_message(&decoder->failure, "nothing to decode");
    status = MEMESH_ERROR;
    break;
  }
  if (status == MEMESH_OK) progress_rows(decoder->progress, decoder->height);
  progress_done(decoder->progress, status);
  return status;
}

void memesh_free(void *pointer) { free(pointer); }

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

void memesh_prefault(void *start, size_t size) {
  long page = sysconf(_SC_PAGESIZE);
  if (start == NULL || size == 0 || page <= 0) return;
  uintptr_t first = ((uintptr_t)start + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
  uintptr_t end = ((uintptr_t)start + size) & ~((uintptr_t)page - 1);
  if (end <= first) return;
  // In slices, so a decoder that overtakes the prefault (a busy machine) is not held up behind
  // one long call for the whole buffer.
  const uintptr_t slice = (uintptr_t)4 << 20;
  for (uintptr_t at = first; at < end; at += slice) {
    uintptr_t length = end - at < slice ? end - at : slice;
    if (madvise((void *)at, length, MADV_POPULATE_WRITE) != 0) return;
  }
}
