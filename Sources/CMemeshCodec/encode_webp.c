// WebP from row pointers (see memesh_encode.h): the rows, captions drawn, become libwebp's ARGB
// picture; libwebp encodes it (lossy or lossless) and libwebpmux adds the ICCP and XMP chunks.
#include "memesh_encode.h"
#include "rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/encode.h>
#include <webp/mux.h>

/// libwebp's reason for a failed encode, in its own terms.
static const char *webp_encode_reason(WebPEncodingError error) {
  switch (error) {
  case VP8_ENC_ERROR_OUT_OF_MEMORY:
  case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
  case VP8_ENC_ERROR_BAD_DIMENSION: return "the picture is too large for WebP (16383 pixels a side)";
  case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
  case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "the picture is too large for lossy WebP";
  case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be larger than WebP allows (4 GB)";
  default: return "libwebp failed";
  }
}

/// Copies libwebp's buffer into one memesh_free can release.
static int hand_over(const uint8_t *bytes, size_t size, uint8_t **out, size_t *out_size) {
  uint8_t *copy = malloc(size > 0 ? size : 1);
  if (copy == NULL) return MEMESH_ERROR;
  memcpy(copy, bytes, size);
  *out = copy;
  *out_size = size;
  return MEMESH_OK;
}

/* libwebp's own memory writer, called rather than named: taking WebPMemoryWrite's address would
   make the dynamic loader bind it at start, and libwebp is opened on first use
   (MemeMedia/SharedLibrary.swift). */
static int write_to_memory(const uint8_t *data, size_t size, const WebPPicture *picture) {
  return WebPMemoryWrite(data, size, picture);
}

int memesh_encode_webp_rows(const memesh_rows *image, const memesh_encode_settings *settings,
                            uint8_t **out, size_t *out_size, char *message, size_t message_size) {
  *out = NULL;
  *out_size = 0;
  WebPConfig config;
  if (!WebPConfigInit(&config)) {
    snprintf(message, message_size, "libwebp is not the version memesh was built with");
    return MEMESH_ERROR;
  }
  int effort = settings->effort < 0 ? 0 : settings->effort > 6 ? 6 : settings->effort;
  if (settings->lossless) {
    WebPConfigLosslessPreset(&config, effort);
    // Transparent pixels keep their colour: a meme's caption edges stay exact.
    config.exact = 1;
  } else {
    config.quality = (float)(settings->quality < 1 ? 1 : settings->quality > 100 ? 100
                                                                                 : settings->quality);
    config.method = effort;
  }
  config.thread_level = 1;
  if (!WebPValidateConfig(&config)) {
    snprintf(message, message_size, "libwebp refused the settings");
    return MEMESH_ERROR;
  }
  if (image->width > WEBP_MAX_DIMENSION || image->height > WEBP_MAX_DIMENSION) {
    snprintf(message, message_size, "a WebP is at most %d pixels on a side", WEBP_MAX_DIMENSION);
    return MEMESH_ERROR;
  }
  WebPPicture picture;
  WebPPictureInit(&picture);
  picture.use_argb = 1;
  picture.width = (int)image->width;
  picture.height = (int)image->height;
  uint8_t *scratch = meme_row_scratch(image);
  if (missing_scratch(image, scratch) || !WebPPictureAlloc(&picture)) {
    free(scratch);
    snprintf(message, message_size, "out of memory");
    return MEMESH_ERROR;
  }
  for (uint32_t row = 0; row < image->height; row++) {
    const uint8_t *source = meme_row(image, row, scratch);
    uint32_t *target = picture.argb + (size_t)row * (size_t)picture.argb_stride;
    for (uint32_t column = 0; column < image->width; column++) {
      const uint8_t *pixel = source + (size_t)column * 4;
      target[column] = (uint32_t)pixel[3] << 24 | (uint32_t)pixel[0] << 16 |
                       (uint32_t)pixel[1] << 8 | pixel[2];
    }
  }
  free(scratch);
  WebPMemoryWriter writer;
  WebPMemoryWriterInit(&writer);
  picture.writer = write_to_memory;
  picture.custom_ptr = &writer;
  int encoded = WebPEncode(&config, &picture);
  WebPEncodingError error = picture.error_code;
  WebPPictureFree(&picture);
  if (!encoded) {
    WebPMemoryWriterClear(&writer);
    snprintf(message, message_size, "%s", webp_encode_reason(error));
    return MEMESH_ERROR;
  }
  int has_icc = settings->icc != NULL && settings->icc_size > 0;
  int has_xmp = settings->recipe_xmp != NULL;
  if (!has_icc && !has_xmp) {
    int status = hand_over(writer.mem, writer.size, out, out_size);
    WebPMemoryWriterClear(&writer);
    if (status != MEMESH_OK) snprintf(message, message_size, "out of memory");
    return status;
  }
  // The chunks go in through libwebpmux, which writes the VP8X header that announces them.
  WebPMux *mux = WebPMuxNew();
  WebPData bitstream = {writer.mem, writer.size};
  WebPData assembled = {NULL, 0};
  WebPMuxError status = mux == NULL ? WEBP_MUX_MEMORY_ERROR : WebPMuxSetImage(mux, &bitstream, 0);
  if (status == WEBP_MUX_OK && has_icc) {
    WebPData icc = {settings->icc, settings->icc_size};
    status = WebPMuxSetChunk(mux, "ICCP", &icc, 0);
  }
  if (status == WEBP_MUX_OK && has_xmp) {
    WebPData xmp = {(const uint8_t *)settings->recipe_xmp, strlen(settings->recipe_xmp)};
    status = WebPMuxSetChunk(mux, "XMP ", &xmp, 0);
  }
  if (status == WEBP_MUX_OK) status = WebPMuxAssemble(mux, &assembled);
  int result = MEMESH_ERROR;
  if (status == WEBP_MUX_OK) result = hand_over(assembled.bytes, assembled.size, out, out_size);
  if (result != MEMESH_OK) {
    snprintf(message, message_size, "%s",
             status == WEBP_MUX_MEMORY_ERROR || status == WEBP_MUX_OK
                 ? "out of memory"
                 : "libwebpmux could not add the colour profile and recipe");
  }
  WebPDataClear(&assembled);
  WebPMuxDelete(mux);
  WebPMemoryWriterClear(&writer);
  return result;
}
