// Test-only reader of a JPEG's DCT coefficients (see memesh_coefficients.h).
#include "memesh_coefficients.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct reader_error {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
} reader_error;

static void reader_error_exit(j_common_ptr info) {
  reader_error *error = (reader_error *)info->err;
  info->err->format_message(info, error->message);
  longjmp(error->jump, 1);
}

static void reader_silent(j_common_ptr info) { (void)info; }

int memesh_read_coefficients(const uint8_t *jpeg, size_t size, memesh_coefficients *out,
                             char *message, size_t message_size) {
  memset(out, 0, sizeof *out);
  struct jpeg_decompress_struct decoder;
  reader_error error;
  decoder.err = jpeg_std_error(&error.manager);
  error.manager.error_exit = reader_error_exit;
  error.manager.output_message = reader_silent;
  jpeg_create_decompress(&decoder);
  if (setjmp(error.jump)) {
    snprintf(message, message_size, "%s", error.message);
    jpeg_destroy_decompress(&decoder);
    memesh_coefficients_free(out);
    return 1;
  }
  jpeg_mem_src(&decoder, jpeg, (unsigned long)size);
  jpeg_read_header(&decoder, TRUE);
  jvirt_barray_ptr *arrays = jpeg_read_coefficients(&decoder);
  out->width = decoder.image_width;
  out->height = decoder.image_height;
  out->components = decoder.num_components > 4 ? 4 : decoder.num_components;
  for (int part = 0; part < out->components; part++) {
    jpeg_component_info *info = &decoder.comp_info[part];
    memesh_coefficient_plane *plane = &out->planes[part];
    plane->blocks_across = info->width_in_blocks;
    plane->blocks_down = info->height_in_blocks;
    plane->h = (uint32_t)info->h_samp_factor;
    plane->v = (uint32_t)info->v_samp_factor;
    plane->coefficients =
        malloc((size_t)plane->blocks_across * plane->blocks_down * 64 * sizeof(int16_t));
    if (plane->coefficients == NULL) {
      snprintf(error.message, sizeof error.message, "out of memory");
      longjmp(error.jump, 1);
    }
    for (JDIMENSION row = 0; row < info->height_in_blocks; row++) {
      JBLOCKARRAY blocks = decoder.mem->access_virt_barray((j_common_ptr)&decoder, arrays[part],
                                                           row, 1, FALSE);
      memcpy(plane->coefficients + (size_t)row * plane->blocks_across * 64, blocks[0],
             (size_t)plane->blocks_across * 64 * sizeof(int16_t));
    }
  }
  jpeg_finish_decompress(&decoder);
  jpeg_destroy_decompress(&decoder);
  return 0;
}

void memesh_coefficients_free(memesh_coefficients *coefficients) {
  for (int part = 0; part < 4; part++) {
    free(coefficients->planes[part].coefficients);
    coefficients->planes[part].coefficients = NULL;
  }
}

int memesh_test_encode_jpeg(const uint8_t *rgba, uint32_t width, uint32_t height,
                            const memesh_test_jpeg_settings *settings, uint8_t **jpeg,
                            size_t *size) {
  struct jpeg_compress_struct encoder;
  reader_error error;
  unsigned char *out = NULL;
  unsigned long out_size = 0;
  encoder.err = jpeg_std_error(&error.manager);
  error.manager.error_exit = reader_error_exit;
  error.manager.output_message = reader_silent;
  *jpeg = NULL;
  *size = 0;
  jpeg_create_compress(&encoder);
  if (setjmp(error.jump)) {
    jpeg_destroy_compress(&encoder);
    free(out);
    return 1;
  }
  jpeg_mem_dest(&encoder, &out, &out_size);
  encoder.image_width = width;
  encoder.image_height = height;
  encoder.input_components = 4;
  encoder.in_color_space = JCS_EXT_RGBA;
  jpeg_set_defaults(&encoder);
  jpeg_set_colorspace(&encoder, settings->components == 1 ? JCS_GRAYSCALE : JCS_YCbCr);
  jpeg_set_quality(&encoder, settings->quality, TRUE);
  encoder.comp_info[0].h_samp_factor = settings->h;
  encoder.comp_info[0].v_samp_factor = settings->v;
  encoder.restart_in_rows = settings->restart_rows;
  encoder.restart_interval = (unsigned)settings->restart_mcus;
  encoder.optimize_coding = settings->optimize ? TRUE : FALSE;
  jpeg_start_compress(&encoder, TRUE);
  while (encoder.next_scanline < height) {
    JSAMPROW row = (JSAMPROW)(rgba + (size_t)encoder.next_scanline * width * 4);
    jpeg_write_scanlines(&encoder, &row, 1);
  }
  jpeg_finish_compress(&encoder);
  jpeg_destroy_compress(&encoder);
  *jpeg = out;
  *size = out_size;
  return 0;
}

void memesh_coefficients_free_jpeg(uint8_t *jpeg) { free(jpeg); }
