// Animated GIF frames from true-colour canvases (see memesh_gif.h): which pixels changed, a
// palette for them (Wu's quantizer), and palette indices with error diffusion.
#include "memesh_gif.h"
#include "memesh_codec.h"

#include <stdlib.h>
#include <string.h>

enum {
  /// Histogram cells per channel: 5 bits plus the empty zero plane Wu's moments need.
  SIDE = 33,
  CELLS = SIDE * SIDE * SIDE,
  /// The colour cache: 6 bits per channel.
  CACHE_SIZE = 1 << 18,
  /// At most this many colours; one more index stays free for transparency.
  MAX_COLOURS = 255,
  /// Slots of the exact palette's hash table, kept under a quarter full.
  EXACT_SLOTS = 1024,
};

static inline uint32_t exact_slot(uint32_t colour) { return (colour * 2654435761u) >> 22; }

struct memesh_gif_state {
  uint32_t width, height;
  /// Per pixel: R G B of the source when the pixel was last drawn, A 255; A 0 while the viewer
  /// shows it transparent.
  uint8_t *shown;
  /// Per pixel of the current frame: 1 drawn, 0 left transparent.
  uint8_t *draw;
  uint8_t *indices;
  /// Two rows of diffused error, ×16, three channels, one pixel of margin on each side.
  int32_t *errors;
  /// Wu's moments: pixel count, channel sums, sum of squares, over the histogram cells.
  int64_t *weight, *red, *green, *blue;
  double *squares;
  /// Colour → palette index + 1 (0: not looked up yet), for the current palette.
  uint16_t *cache;
  uint8_t palette[256 * 3];
  uint32_t palette_count;
  int has_palette;
  /// When the palette holds the frame's colours exactly: colour → index, open addressing.
  int exact;
  uint32_t exact_colours[EXACT_SLOTS];
  uint8_t exact_indices[EXACT_SLOTS];
};

memesh_gif_state *memesh_gif_state_new(uint32_t width, uint32_t height) {
  if (width == 0 || height == 0) return NULL;
  memesh_gif_state *state = calloc(1, sizeof *state);
  if (state == NULL) return NULL;
  size_t pixels = (size_t)width * height;
  state->width = width;
  state->height = height;
  state->shown = calloc(pixels, 4);
  state->draw = malloc(pixels);
  state->indices = malloc(pixels);
  state->errors = malloc(((size_t)width + 2) * 3 * 2 * sizeof(int32_t));
  state->weight = malloc(CELLS * sizeof(int64_t));
  state->red = malloc(CELLS * sizeof(int64_t));
  state->green = malloc(CELLS * sizeof(int64_t));
  state->blue = malloc(CELLS * sizeof(int64_t));
  state->squares = malloc(CELLS * sizeof(double));
  state->cache = malloc(CACHE_SIZE * sizeof(uint16_t));
  if (!state->shown || !state->draw || !state->indices || !state->errors || !state->weight ||
      !state->red || !state->green || !state->blue || !state->squares || !state->cache) {
    memesh_gif_state_free(state);
    return NULL;
  }
  return state;
}

void memesh_gif_state_free(memesh_gif_state *state) {
  if (state == NULL) return;
  free(state->shown);
  free(state->draw);
  free(state->indices);
  free(state->errors);
  free(state->weight);
  free(state->red);
  free(state->green);
  free(state->blue);
  free(state->squares);
  free(state->cache);
  free(state);
}

int memesh_rgba_has_transparency(const uint8_t *pixels, size_t count) {
  for (size_t index = 0; index < count; index++) {
    if (pixels[index * 4 + 3] < 128) return 1;
  }
  return 0;
}

void memesh_overlay_draw_marking(const memesh_overlay *overlay, uint8_t *pixels, uint32_t width,
                                 uint32_t height, uint8_t *mask, uint8_t *scratch) {
  memset(mask, 0, (size_t)width * height);
  if (overlay == NULL) return;
  // The row as it was, to see which pixels the captions changed: the scratch's second half.
  uint8_t *before = malloc((size_t)width * 4);
  if (before == NULL) {
    // Without the copy, every pixel of a caption row counts as caption (undithered): safe.
    for (uint32_t row = 0; row < height; row++) {
      if (!memesh_overlay_covers(overlay, row)) continue;
      memesh_overlay_draw_row(overlay, row, pixels + (size_t)row * width * 4, width, scratch);
      memset(mask + (size_t)row * width, 1, width);
    }
    return;
  }
  for (uint32_t row = 0; row < height; row++) {
    if (!memesh_overlay_covers(overlay, row)) continue;
    uint8_t *line = pixels + (size_t)row * width * 4;
    memcpy(before, line, (size_t)width * 4);
    memesh_overlay_draw_row(overlay, row, line, width, scratch);
    uint8_t *marks = mask + (size_t)row * width;
    for (uint32_t column = 0; column < width; column++) {
      marks[column] = memcmp(before + column * 4, line + column * 4, 4) != 0;
    }
  }
  free(before);
}

// MARK: - Wu's quantizer

typedef struct box {
  int r0, r1, g0, g1, b0, b1;  // lower bounds exclusive, upper inclusive, in cells 0…32
  int volume;
} box;

static inline int cell(int r, int g, int b) { return (r * SIDE + g) * SIDE + b; }

/// The sum of `moment` over the cells inside `cube` (inclusion–exclusion on the cumulative sums).
static int64_t volume(const box *cube, const int64_t *moment) {
  return moment[cell(cube->r1, cube->g1, cube->b1)] - moment[cell(cube->r1, cube->g1, cube->b0)] -
         moment[cell(cube->r1, cube->g0, cube->b1)] + moment[cell(cube->r1, cube->g0, cube->b0)] -
         moment[cell(cube->r0, cube->g1, cube->b1)] + moment[cell(cube->r0, cube->g1, cube->b0)] +
         moment[cell(cube->r0, cube->g0, cube->b1)] - moment[cell(cube->r0, cube->g0, cube->b0)];
}

static double volume_squares(const box *cube, const double *moment) {
  return moment[cell(cube->r1, cube->g1, cube->b1)] - moment[cell(cube->r1, cube->g1, cube->b0)] -
         moment[cell(cube->r1, cube->g0, cube->b1)] + moment[cell(cube->r1, cube->g0, cube->b0)] -
         moment[cell(cube->r0, cube->g1, cube->b1)] + moment[cell(cube->r0, cube->g1, cube->b0)] +
         moment[cell(cube->r0, cube->g0, cube->b1)] - moment[cell(cube->r0, cube->g0, cube->b0)];
}

/// The part of `volume` that does not depend on the upper bound along `axis` (0 r, 1 g, 2 b).
static int64_t bottom(const box *c, int axis, const int64_t *m) {
  switch (axis) {
  case 0:
    return -m[cell(c->r0, c->g1, c->b1)] + m[cell(c->r0, c->g1, c->b0)] +
           m[cell(c->r0, c->g0, c->b1)] - m[cell(c->r0, c->g0, c->b0)];
  case 1:
    return -m[cell(c->r1, c->g0, c->b1)] + m[cell(c->r1, c->g0, c->b0)] +
           m[cell(c->r0, c->g0, c->b1)] - m[cell(c->r0, c->g0, c->b0)];
  default:
    return -m[cell(c->r1, c->g1, c->b0)] + m[cell(c->r1, c->g0, c->b0)] +
           m[cell(c->r0, c->g1, c->b0)] - m[cell(c->r0, c->g0, c->b0)];
  }
}

/// The rest of `volume` with the upper bound along `axis` moved to `position`.
static int64_t top(const box *c, int axis, int position, const int64_t *m) {
  switch (axis) {
  case 0:
    return m[cell(position, c->g1, c->b1)] - m[cell(position, c->g1, c->b0)] -
           m[cell(position, c->g0, c->b1)] + m[cell(position, c->g0, c->b0)];
  case 1:
    return m[cell(c->r1, position, c->b1)] - m[cell(c->r1, position, c->b0)] -
           m[cell(c->r0, position, c->b1)] + m[cell(c->r0, position, c->b0)];
  default:
    return m[cell(c->r1, c->g1, position)] - m[cell(c->r1, c->g0, position)] -
           m[cell(c->r0, c->g1, position)] + m[cell(c->r0, c->g0, position)];
  }
}

/// The spread of the colours in `cube`: sum of squares minus squared sum over count.
static double variance(const memesh_gif_state *s, const box *cube) {
  double r = (double)volume(cube, s->red), g = (double)volume(cube, s->green),
         b = (double)volume(cube, s->blue), w = (double)volume(cube, s->weight);
  if (w <= 0) return 0;
  return volume_squares(cube, s->squares) - (r * r + g * g + b * b) / w;
}

/// The best cut of `cube` along `axis` between `first` and `last` (the one that leaves the two
/// halves with the largest sum of squared means, so the smallest total variance); -1 if none.
static double best_cut(const memesh_gif_state *s, const box *cube, int axis, int first, int last,
                       int *cut, const int64_t whole[4]) {
  int64_t base_r = bottom(cube, axis, s->red), base_g = bottom(cube, axis, s->green),
          base_b = bottom(cube, axis, s->blue), base_w = bottom(cube, axis, s->weight);
  double best = 0;
  *cut = -1;
  for (int position = first; position < last; position++) {
    int64_t half_r = base_r + top(cube, axis, position, s->red);
    int64_t half_g = base_g + top(cube, axis, position, s->green);
    int64_t half_b = base_b + top(cube, axis, position, s->blue);
    int64_t half_w = base_w + top(cube, axis, position, s->weight);
    if (half_w == 0) continue;
    double score =
        ((double)half_r * half_r + (double)half_g * half_g + (double)half_b * half_b) / half_w;
    half_r = whole[0] - half_r;
    half_g = whole[1] - half_g;
    half_b = whole[2] - half_b;
    half_w = whole[3] - half_w;
    if (half_w == 0) continue;
    score += ((double)half_r * half_r + (double)half_g * half_g + (double)half_b * half_b) / half_w;
    if (score > best) {
      best = score;
      *cut = position;
    }
  }
  return best;
}

/// Splits `first` in two along its best axis, the second half into `second`; 0 if it cannot.
static int split(const memesh_gif_state *s, box *first, box *second) {
  int64_t whole[4] = {volume(first, s->red), volume(first, s->green), volume(first, s->blue),
                      volume(first, s->weight)};
  int cuts[3];
  double scores[3] = {
      best_cut(s, first, 0, first->r0 + 1, first->r1, &cuts[0], whole),
      best_cut(s, first, 1, first->g0 + 1, first->g1, &cuts[1], whole),
      best_cut(s, first, 2, first->b0 + 1, first->b1, &cuts[2], whole),
  };
  int axis = scores[0] >= scores[1] && scores[0] >= scores[2] ? 0 : scores[1] >= scores[2] ? 1 : 2;
  if (cuts[axis] < 0) return 0;
  *second = *first;
  switch (axis) {
  case 0: second->r0 = first->r1 = cuts[0]; break;
  case 1: second->g0 = first->g1 = cuts[1]; break;
  default: second->b0 = first->b1 = cuts[2]; break;
  }
  first->volume = (first->r1 - first->r0) * (first->g1 - first->g0) * (first->b1 - first->b0);
  second->volume =
      (second->r1 - second->r0) * (second->g1 - second->g0) * (second->b1 - second->b0);
  return 1;
}

/// Turns the histogram's counts into cumulative moments (each cell: the sum over every cell at
/// or below it on all three axes), so any box's sums take eight look-ups.
static void accumulate(memesh_gif_state *s) {
  int64_t area[SIDE][4];
  double area_squares[SIDE];
  for (int r = 1; r < SIDE; r++) {
    memset(area, 0, sizeof area);
    memset(area_squares, 0, sizeof area_squares);
    for (int g = 1; g < SIDE; g++) {
      int64_t line[4] = {0, 0, 0, 0};
      double line_squares = 0;
      for (int b = 1; b < SIDE; b++) {
        int here = cell(r, g, b), below = cell(r - 1, g, b);
        line[0] += s->weight[here];
        line[1] += s->red[here];
        line[2] += s->green[here];
        line[3] += s->blue[here];
        line_squares += s->squares[here];
        for (int k = 0; k < 4; k++) area[b][k] += line[k];
        area_squares[b] += line_squares;
        s->weight[here] = s->weight[below] + area[b][0];
        s->red[here] = s->red[below] + area[b][1];
        s->green[here] = s->green[below] + area[b][2];
        s->blue[here] = s->blue[below] + area[b][3];
        s->squares[here] = s->squares[below] + area_squares[b];
      }
    }
  }
}

/// Makes the palette from the histogram already filled in: up to `limit` boxes, each cut
/// where it lowers the total variance most, each colour its box's mean.
static void make_palette(memesh_gif_state *s, int limit) {
  accumulate(s);
  box cubes[MAX_COLOURS];
  double spread[MAX_COLOURS];
  cubes[0] = (box){0, SIDE - 1, 0, SIDE - 1, 0, SIDE - 1, 0};
  int count = 1, next = 0;
  spread[0] = variance(s, &cubes[0]);
  while (count < limit) {
    if (split(s, &cubes[next], &cubes[count])) {
      spread[next] = cubes[next].volume > 1 ? variance(s, &cubes[next]) : 0;
      spread[count] = cubes[count].volume > 1 ? variance(s, &cubes[count]) : 0;
      count++;
    } else {
      spread[next] = 0;
    }
    next = 0;
    double largest = spread[0];
    for (int index = 1; index < count; index++) {
      if (spread[index] > largest) {
        largest = spread[index];
        next = index;
      }
    }
    if (largest <= 0) break;
  }
  uint32_t colours = 0;
  for (int index = 0; index < count; index++) {
    int64_t weight = volume(&cubes[index], s->weight);
    if (weight <= 0) continue;
    uint8_t *colour = s->palette + colours * 3;
    colour[0] = (uint8_t)((volume(&cubes[index], s->red) + weight / 2) / weight);
    colour[1] = (uint8_t)((volume(&cubes[index], s->green) + weight / 2) / weight);
    colour[2] = (uint8_t)((volume(&cubes[index], s->blue) + weight / 2) / weight);
    colours++;
  }
  if (colours == 0) {
    memset(s->palette, 0, 3);
    colours = 1;
  }
  s->palette_count = colours;
  memset(s->cache, 0, CACHE_SIZE * sizeof(uint16_t));
  s->has_palette = 1;
  s->exact = 0;
}

/// When the pixels to draw have at most `MAX_COLOURS` distinct colours (a GIF's own frames
/// usually do), makes them the palette exactly; 0 when there are more.
static int exact_palette(memesh_gif_state *s, const uint8_t *target, uint32_t left, uint32_t top,
                         uint32_t right, uint32_t bottom) {
  uint32_t *slots = s->exact_colours;
  memset(slots, 0xFF, sizeof s->exact_colours);
  s->exact = 0;
  uint32_t count = 0;
  for (uint32_t y = top; y < bottom; y++) {
    const uint8_t *source = target + ((size_t)y * s->width + left) * 4;
    const uint8_t *draw = s->draw + (size_t)y * s->width + left;
    uint32_t last = 0xFFFFFFFFu;
    for (uint32_t x = 0; x < right - left; x++, source += 4) {
      if (!draw[x]) continue;
      uint32_t colour = (uint32_t)source[0] << 16 | (uint32_t)source[1] << 8 | source[2];
      if (colour == last) continue;
      last = colour;
      uint32_t slot = exact_slot(colour);
      while (slots[slot] != 0xFFFFFFFFu && slots[slot] != colour) {
        slot = (slot + 1) & (EXACT_SLOTS - 1);
      }
      if (slots[slot] == colour) continue;
      if (count == MAX_COLOURS) return 0;
      slots[slot] = colour;
      s->exact_indices[slot] = (uint8_t)count;
      s->palette[count * 3] = (uint8_t)(colour >> 16);
      s->palette[count * 3 + 1] = (uint8_t)(colour >> 8);
      s->palette[count * 3 + 2] = (uint8_t)colour;
      count++;
    }
  }
  if (count == 0) {
    memset(s->palette, 0, 3);
    count = 1;
  }
  s->palette_count = count;
  memset(s->cache, 0, CACHE_SIZE * sizeof(uint16_t));
  s->has_palette = 1;
  s->exact = 1;
  return 1;
}

/// The index of exactly r, g, b in an exact palette, or -1.
static inline int exact_index(const memesh_gif_state *s, const uint8_t *colour) {
  uint32_t value = (uint32_t)colour[0] << 16 | (uint32_t)colour[1] << 8 | colour[2];
  uint32_t slot = exact_slot(value);
  while (s->exact_colours[slot] != 0xFFFFFFFFu) {
    if (s->exact_colours[slot] == value) return s->exact_indices[slot];
    slot = (slot + 1) & (EXACT_SLOTS - 1);
  }
  return -1;
}

/// The palette index nearest (squared distance) to r, g, b, remembered per 6-bit cell.
static inline uint32_t nearest(memesh_gif_state *s, int r, int g, int b) {
  uint32_t key = (uint32_t)(r >> 2) << 12 | (uint32_t)(g >> 2) << 6 | (uint32_t)(b >> 2);
  uint16_t known = s->cache[key];
  if (known != 0) return known - 1u;
  uint32_t best = 0;
  int best_distance = 1 << 30;
  const uint8_t *colour = s->palette;
  for (uint32_t index = 0; index < s->palette_count; index++, colour += 3) {
    int dr = r - colour[0], dg = g - colour[1], db = b - colour[2];
    int distance = dr * dr + dg * dg + db * db;
    if (distance < best_distance) {
      best_distance = distance;
      best = index;
      if (distance == 0) break;
    }
  }
  s->cache[key] = (uint16_t)(best + 1);
  return best;
}

// MARK: - Frames

static inline int differs(const uint8_t *a, const uint8_t *b, int tolerance) {
  int dr = a[0] - b[0], dg = a[1] - b[1], db = a[2] - b[2];
  return dr > tolerance || dr < -tolerance || dg > tolerance || dg < -tolerance ||
         db > tolerance || db < -tolerance;
}

static inline int clamp_channel(int value) { return value < 0 ? 0 : value > 255 ? 255 : value; }

int memesh_gif_state_add(memesh_gif_state *s, const uint8_t *target, const uint8_t *caption_mask,
                         int next_has_transparency, const memesh_gif_options *options,
                         memesh_gif_frame *frame) {
  uint32_t width = s->width, height = s->height;
  int tolerance = options->tolerance < 0 ? 0 : options->tolerance;
  // Which pixels to draw, and the rectangle around them (and around every opaque pixel when the
  // frame is cleared after it is shown).
  uint32_t left = width, top = height, right = 0, bottom = 0;
  int any_transparent = 0;
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *source = target + (size_t)y * width * 4;
    const uint8_t *seen = s->shown + (size_t)y * width * 4;
    uint8_t *draw = s->draw + (size_t)y * width;
    for (uint32_t x = 0; x < width; x++, source += 4, seen += 4) {
      int opaque = source[3] >= 128;
      int changed = opaque && (seen[3] == 0 || differs(source, seen, tolerance));
      draw[x] = (uint8_t)changed;
      any_transparent |= !opaque;
      if (changed || (opaque && next_has_transparency)) {
        if (x < left) left = x;
        if (x >= right) right = x + 1;
        if (y < top) top = y;
        if (y >= bottom) bottom = y + 1;
      }
    }
  }
  (void)any_transparent;
  if (right <= left || bottom <= top) {
    // Nothing changed: one transparent pixel keeps the frame (and its delay).
    left = top = 0;
    right = bottom = 1;
    s->draw[0] = 0;
  }
  uint32_t frame_width = right - left, frame_height = bottom - top;
  if ((!s->has_palette || !options->global_palette) &&
      !(options->exact_colours && exact_palette(s, target, left, top, right, bottom))) {
    memset(s->weight, 0, CELLS * sizeof(int64_t));
    memset(s->red, 0, CELLS * sizeof(int64_t));
    memset(s->green, 0, CELLS * sizeof(int64_t));
    memset(s->blue, 0, CELLS * sizeof(int64_t));
    memset(s->squares, 0, CELLS * sizeof(double));
    for (uint32_t y = top; y < bottom; y++) {
      const uint8_t *source = target + ((size_t)y * width + left) * 4;
      const uint8_t *draw = s->draw + (size_t)y * width + left;
      for (uint32_t x = 0; x < frame_width; x++, source += 4) {
        if (!draw[x]) continue;
        int r = source[0], g = source[1], b = source[2];
        int here = cell((r >> 3) + 1, (g >> 3) + 1, (b >> 3) + 1);
        s->weight[here] += 1;
        s->red[here] += r;
        s->green[here] += g;
        s->blue[here] += b;
        s->squares[here] += (double)(r * r + g * g + b * b);
      }
    }
    int limit = options->max_colours;
    make_palette(s, limit < 2 ? 2 : limit > MAX_COLOURS ? MAX_COLOURS : limit);
  }
  uint32_t transparent = s->palette_count;
  int uses_transparent = 0;
  int strength = options->dither < 0 ? 0 : options->dither > 16 ? 16 : options->dither;
  size_t stride = ((size_t)frame_width + 2) * 3;
  int32_t *current = s->errors, *below = s->errors + stride;
  memset(current, 0, stride * 2 * sizeof(int32_t));
  for (uint32_t row = 0; row < frame_height; row++) {
    uint32_t y = top + row;
    const uint8_t *source_row = target + ((size_t)y * width + left) * 4;
    const uint8_t *draw = s->draw + (size_t)y * width + left;
    const uint8_t *mask = caption_mask ? caption_mask + (size_t)y * width + left : NULL;
    uint8_t *seen_row = s->shown + ((size_t)y * width + left) * 4;
    uint8_t *out = s->indices + (size_t)row * frame_width;
    // Serpentine: even rows left to right, odd rows right to left.
    int forward = (row & 1) == 0;
    for (uint32_t step = 0; step < frame_width; step++) {
      uint32_t x = forward ? step : frame_width - 1 - step;
      int32_t *error = current + (x + 1) * 3;
      if (!draw[x]) {
        out[x] = (uint8_t)transparent;
        uses_transparent = 1;
        continue;
      }
      const uint8_t *source = source_row + (size_t)x * 4;
      uint8_t *seen = seen_row + (size_t)x * 4;
      memcpy(seen, source, 3);
      seen[3] = 255;
      if (s->exact) {
        // A colour of the palette itself: no error to carry.
        int index = exact_index(s, source);
        if (index >= 0) {
          out[x] = (uint8_t)index;
          continue;
        }
      }
      if (mask != NULL && mask[x]) {
        out[x] = (uint8_t)nearest(s, source[0], source[1], source[2]);
        continue;
      }
      int wanted[3];
      for (int c = 0; c < 3; c++) {
        int carried = error[c] * strength / 256;
        // Bounded, so one far-off colour does not smear down the picture.
        carried = carried > 40 ? 40 : carried < -40 ? -40 : carried;
        wanted[c] = clamp_channel(source[c] + carried);
      }
      uint32_t index = nearest(s, wanted[0], wanted[1], wanted[2]);
      out[x] = (uint8_t)index;
      if (strength == 0) continue;
      const uint8_t *chosen = s->palette + index * 3;
      int32_t *ahead = forward ? error + 3 : error - 3;
      int32_t *under = below + (x + 1) * 3;
      int32_t *under_ahead = forward ? under + 3 : under - 3;
      int32_t *under_behind = forward ? under - 3 : under + 3;
      for (int c = 0; c < 3; c++) {
        int32_t residue = wanted[c] - chosen[c];
        ahead[c] += residue * 7;
        under_behind[c] += residue * 3;
        under[c] += residue * 5;
        under_ahead[c] += residue;
      }
    }
    int32_t *swap = current;
    current = below;
    below = swap;
    memset(below, 0, stride * sizeof(int32_t));
  }
  frame->left = left;
  frame->top = top;
  frame->width = frame_width;
  frame->height = frame_height;
  memcpy(frame->palette, s->palette, (size_t)s->palette_count * 3);
  frame->palette_size = s->palette_count;
  frame->transparent_index = -1;
  if (uses_transparent) {
    memset(frame->palette + transparent * 3, 0, 3);
    frame->palette_size = transparent + 1;
    frame->transparent_index = (int)transparent;
  }
  frame->disposal = next_has_transparency ? 2 : 1;
  frame->indices = s->indices;
  if (next_has_transparency) {
    for (uint32_t y = top; y < bottom; y++) {
      uint8_t *seen = s->shown + ((size_t)y * width + left) * 4;
      for (uint32_t x = 0; x < frame_width; x++) seen[x * 4 + 3] = 0;
    }
  }
  return MEMESH_OK;
}
