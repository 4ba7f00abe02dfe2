#ifndef MEMESH_GIF_H
#define MEMESH_GIF_H
#include <stddef.h>
#include <stdint.h>

#include "memesh_encode.h"

/* The per-pixel half of writing an animated GIF; MemeMedia/GIFWriter.swift writes the file with
   giflib (LZW, blocks). Why C: each function below runs over every pixel of every frame (130,000
   pixels × 100 frames for a small reaction GIF, 2 million × 30 for a 1080p one) — the histogram,
   the colour search, error diffusion — where C's plain loops are several times faster than
   bounds-checked Swift. giflib's own GifQuantizeBuffer is median cut without dithering or
   transparency: the palette here is Xiaolin Wu's variance-minimising cut of a 5-bit histogram. */

/// How frames are turned into palette pictures.
typedef struct memesh_gif_options {
  /// Error diffusion (Floyd–Steinberg, serpentine) strength in 16ths: 0 none, 16 full. Never
  /// applied to caption pixels, whose antialiased edges stay clean.
  int dither;
  /// A pixel whose channels all differ by at most this from what the viewer already shows (as
  /// the source had it when it was drawn) is left transparent: "unchanged".
  int tolerance;
  /// 1: one palette, made from the first frame, for every frame; 0: a palette per frame.
  int global_palette;
  /// 1: when the pixels to draw have at most 255 colours (a GIF's own frames), they are the
  /// palette, exactly; 0: always Wu's palette.
  int exact_colours;
  /// The most colours a frame's palette has, 2…255 (one more index is kept for transparency).
  int max_colours;
} memesh_gif_options;

/// One frame as the GIF will hold it: a rectangle of palette indices.
typedef struct memesh_gif_frame {
  uint32_t left, top, width, height;
  /// R G B of `palette_size` colours (1…256).
  uint8_t palette[256 * 3];
  uint32_t palette_size;
  /// The transparent index, or -1 when the frame has none.
  int transparent_index;
  /// GIF disposal: 1 leave the frame in place, 2 clear its rectangle to transparent.
  int disposal;
  /// `width × height` indices, owned by the state (valid until the next call).
  const uint8_t *indices;
} memesh_gif_frame;

/// What a viewer of the GIF shows so far (each pixel: transparent, or the source colour it was
/// drawn for), and the scratch the next frame needs.
typedef struct memesh_gif_state memesh_gif_state;

/// A state for a `width × height` canvas, all transparent; NULL when out of memory.
memesh_gif_state *memesh_gif_state_new(uint32_t width, uint32_t height);
void memesh_gif_state_free(memesh_gif_state *state);

/// Turns `target` (the canvas's RGBA pixels as the frame should look) into the next GIF frame:
/// the rectangle of pixels that differ from what is shown, quantized, the rest transparent.
/// `caption_mask` (or NULL) marks with non-zero bytes the caption's pixels (never dithered).
/// `next_has_transparency`: the following frame has transparent pixels, so this frame covers
/// every opaque pixel and clears its rectangle after it is shown (disposal 2). MEMESH_OK, or
/// MEMESH_ERROR when out of memory.
int memesh_gif_state_add(memesh_gif_state *state, const uint8_t *target,
                         const uint8_t *caption_mask, int next_has_transparency,
                         const memesh_gif_options *options, memesh_gif_frame *frame);

/// 1 when some of the `count` RGBA pixels has alpha below 128 (a GIF shows it transparent).
int memesh_rgba_has_transparency(const uint8_t *pixels, size_t count);

/// Draws `overlay` onto the `width × height` RGBA `pixels` and sets `mask[i]` to 1 for each
/// pixel the captions changed (0 elsewhere). `scratch`: 2 × `width` bytes.
void memesh_overlay_draw_marking(const memesh_overlay *overlay, uint8_t *pixels, uint32_t width,
                                 uint32_t height, uint8_t *mask, uint8_t *scratch);

#endif
