/* The floor for `make bench`'s HEIC row: decode a HEIC with libheif and encode a JPEG, nothing
 * else.
 *
 *     floor-heif IN.heic OUT.jpg
 *
 * libheif decodes the primary image (its tiles on libheif's own threads) to interleaved RGB;
 * libjpeg-turbo writes quality 90 with its defaults (4:2:0). Built by scripts/bench. */
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>
#include <libheif/heif.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: floor-heif IN.heic OUT.jpg\n");
    return 2;
  }
  struct heif_context *context = heif_context_alloc();
  struct heif_image_handle *handle = NULL;
  struct heif_image *image = NULL;
  struct heif_error error = heif_context_read_from_file(context, argv[1], NULL);
  if (error.code == heif_error_Ok)
    error = heif_context_get_primary_image_handle(context, &handle);
  if (error.code == heif_error_Ok)
    error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB,
                              NULL);
  if (error.code != heif_error_Ok) {
    fprintf(stderr, "floor-heif: %s: %s\n", argv[1], error.message);
    return 1;
  }
  int stride = 0;
  const uint8_t *pixels = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
  int width = heif_image_get_width(image, heif_channel_interleaved);
  int height = heif_image_get_height(image, heif_channel_interleaved);

  FILE *out = fopen(argv[2], "wb");
  if (out == NULL) {
    fprintf(stderr, "floor-heif: cannot write %s\n", argv[2]);
    return 1;
  }
  struct jpeg_compress_struct encoder;
  struct jpeg_error_mgr encoder_error;
  encoder.err = jpeg_std_error(&encoder_error);
  jpeg_create_compress(&encoder);
  jpeg_stdio_dest(&encoder, out);
  encoder.image_width = (JDIMENSION)width;
  encoder.image_height = (JDIMENSION)height;
  encoder.input_components = 3;
  encoder.in_color_space = JCS_RGB;
  jpeg_set_defaults(&encoder);
  jpeg_set_quality(&encoder, 90, TRUE);
  jpeg_start_compress(&encoder, TRUE);
  while (encoder.next_scanline < encoder.image_height) {
    JSAMPROW row = (JSAMPROW)(pixels + (size_t)encoder.next_scanline * (size_t)stride);
    jpeg_write_scanlines(&encoder, &row, 1);
  }
  jpeg_finish_compress(&encoder);
  jpeg_destroy_compress(&encoder);
  fclose(out);
  heif_image_release(image);
  heif_image_handle_release(handle);
  heif_context_free(context);
  return 0;
}
