/* The floor for `make bench`: decode a JPEG and encode it again, nothing else.
 *
 *     floor IN.jpg OUT.jpg|OUT.png
 *
 * libjpeg-turbo decodes to RGB; JPEG out at quality 90 (libjpeg defaults, 4:2:0), PNG out
 * through libpng with zlib level 6 and libpng's default (adaptive) filters — what a program
 * that does no more than read and write the picture costs. Built by scripts/bench. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
  *size = bytes != NULL ? fread(bytes, 1, (size_t)length, file) : 0;
  fclose(file);
  return bytes;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: floor IN.jpg OUT.jpg|OUT.png\n");
    return 2;
  }
  size_t size = 0;
  unsigned char *bytes = read_file(argv[1], &size);
  if (bytes == NULL || size == 0) {
    fprintf(stderr, "floor: cannot read %s\n", argv[1]);
    return 1;
  }
  struct jpeg_decompress_struct in;
  struct jpeg_error_mgr in_error;
  in.err = jpeg_std_error(&in_error);
  jpeg_create_decompress(&in);
  jpeg_mem_src(&in, bytes, size);
  jpeg_read_header(&in, TRUE);
  in.out_color_space = JCS_RGB;
  jpeg_start_decompress(&in);
  unsigned width = in.output_width, height = in.output_height;
  size_t stride = (size_t)width * 3;
  unsigned char *pixels = malloc(stride * height);
  while (in.output_scanline < height) {
    JSAMPROW row = pixels + in.output_scanline * stride;
    jpeg_read_scanlines(&in, &row, 1);
  }
  jpeg_finish_decompress(&in);
  jpeg_destroy_decompress(&in);
  free(bytes);

  FILE *out = fopen(argv[2], "wb");
  if (out == NULL) {
    fprintf(stderr, "floor: cannot write %s\n", argv[2]);
    return 1;
  }
  size_t name_length = strlen(argv[2]);
  if (name_length > 4 && strcmp(argv[2] + name_length - 4, ".png") == 0) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_init_io(png, out);
    png_set_compression_level(png, 6);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (unsigned row = 0; row < height; row++) png_write_row(png, pixels + row * stride);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
  } else {
    struct jpeg_compress_struct encoder;
    struct jpeg_error_mgr encoder_error;
    encoder.err = jpeg_std_error(&encoder_error);
    jpeg_create_compress(&encoder);
    jpeg_stdio_dest(&encoder, out);
    encoder.image_width = width;
    encoder.image_height = height;
    encoder.input_components = 3;
    encoder.in_color_space = JCS_RGB;
    jpeg_set_defaults(&encoder);
    jpeg_set_quality(&encoder, 90, TRUE);
    jpeg_start_compress(&encoder, TRUE);
    while (encoder.next_scanline < height) {
      JSAMPROW row = pixels + encoder.next_scanline * stride;
      jpeg_write_scanlines(&encoder, &row, 1);
    }
    jpeg_finish_compress(&encoder);
    jpeg_destroy_compress(&encoder);
  }
  fclose(out);
  free(pixels);
  return 0;
}
