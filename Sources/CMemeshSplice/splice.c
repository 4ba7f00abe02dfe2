// The JPEG splicer: see memesh_splice.h for what it does and why it is C.
#include "memesh_splice.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jpeglib.h>

// MARK: - Huffman tables

/// Codes up to this long are decoded with one table lookup.
#define LOOKAHEAD 9
/// When only where a block ends matters (indexing), the AC codes and value bits that fit in the
/// next GROUP_BITS bits are skipped together with one table lookup.
#define GROUP_BITS 14
/// A group entry: bits 0-5 the bits it covers, bits 6-12 the coefficients its codes cover (before
/// an end of block), bit 13 whether it ends with an end of block. 0: the next code and its value
/// bits are longer than GROUP_BITS (or there is no such code).
#define GROUP_LENGTH(entry) ((entry) & 63)
#define GROUP_COEFFICIENTS(entry) (((entry) >> 6) & 127)
#define GROUP_END 0x2000

typedef struct huffman_table {
  bool defined;
  uint8_t counts[17];
  uint8_t values[256];
  int value_count;
  // Decoding.
  int32_t max_code[18];
  int32_t value_offset[18];
  uint16_t lookahead[1 << LOOKAHEAD];
  // Skipping AC codes (AC tables only): one entry per GROUP_BITS-bit pattern, in the file's
  // `ac_group`.
  uint16_t *group;
  // Encoding: code and length per value (length 0: no code).
  uint16_t code[256];
  uint8_t length[256];
} huffman_table;

/// Fills `table->group`: for each pattern of GROUP_BITS bits, as many whole AC symbols (code and
/// value bits) as the pattern holds, read in order, stopping after an end of block, before a
/// symbol with more than 10 value bits, and before the coefficients would pass 64 (the reader
/// takes a group only when it stays inside the block, and reads codes one by one otherwise).
/// Made only for a scan about to be indexed (build_index), from a table huffman_build accepted.
static void huffman_build_groups(const huffman_table *table) {
  enum { patterns = 1 << GROUP_BITS, mask = patterns - 1 };
  // One symbol per pattern first: length with value bits, coefficients, end of block.
  uint16_t single[patterns];
  memset(single, 0, sizeof single);
  int32_t code = 0;
  int index = 0;
  for (int length = 1; length <= GROUP_BITS; length++) {
    for (int count = 0; count < table->counts[length]; count++, code++, index++) {
      int value = table->values[index], run = value >> 4, size = value & 15;
      if (size > 10 || length + size > GROUP_BITS) continue;
      uint16_t entry = (uint16_t)(length + size);
      if (size > 0) {
        entry |= (uint16_t)((run + 1) << 6);
      } else if (run == 15) {
        entry |= 16 << 6;  // sixteen zeros
      } else {
        entry |= GROUP_END;
      }
      int shift = GROUP_BITS - length;
      for (int fill = 0; fill < (1 << shift); fill++) single[(code << shift) | fill] = entry;
    }
    code <<= 1;
  }
  for (int pattern = 0; pattern < patterns; pattern++) {
    int used = 0, coefficients = 0;
    uint16_t entry = 0;
    for (;;) {
      uint16_t next = single[(pattern << used) & mask];
      int length = GROUP_LENGTH(next);
      if (next == 0 || length > GROUP_BITS - used) break;
      if (coefficients + GROUP_COEFFICIENTS(next) > 64) break;
      used += length;
      coefficients += GROUP_COEFFICIENTS(next);
      entry = (uint16_t)(used | coefficients << 6 | (next & GROUP_END));
      if (next & GROUP_END) break;
    }
    table->group[pattern] = entry;
  }
}

/// Builds the canonical codes of a DHT table; false when they overflow (as libjpeg refuses).
static bool huffman_build(huffman_table *table) {
  memset(table->lookahead, 0, sizeof table->lookahead);
  memset(table->length, 0, sizeof table->length);
  int32_t code = 0;
  int index = 0;
  for (int length = 1; length <= 16; length++) {
    table->value_offset[length] = index - code;
    for (int count = 0; count < table->counts[length]; count++) {
      // More codes than `length` bits can hold: refused before a table is written past its end.
      if (code >= (1 << length)) return false;
      uint8_t value = table->values[index];
      // A value listed twice would get two codes; keep the first for encoding.
      if (table->length[value] == 0) {
        table->code[value] = (uint16_t)code;
        table->length[value] = (uint8_t)length;
      }
      if (length <= LOOKAHEAD) {
        int shift = LOOKAHEAD - length;
        for (int fill = 0; fill < (1 << shift); fill++) {
          table->lookahead[(code << shift) | fill] = (uint16_t)((length << 8) | value);
        }
      }
      code++;
      index++;
    }
    table->max_code[length] = table->counts[length] ? code - 1 : -1;
    if (code >= (1 << length)) return false;
    code <<= 1;
  }
  table->max_code[17] = 0x7fffffff;
  return true;
}

// MARK: - Bits

/// The entropy-coded data as the file holds it (read in place, never copied): a 0xFF data byte
/// is followed by a stuffed 0x00 (libjpeg also skips 0xFF fill bytes before that 0x00), and a
/// marker ends it at byte `end` (EOI; RSTn markers inside it are at known places). A position
/// is a bit offset into these bytes that never points into a stuffed or fill byte, so each
/// data bit has exactly one position.
typedef struct scan_bits {
  const uint8_t *bytes;
  /// Bytes `0 ..< end` are readable.
  uint64_t end;
} scan_bits;

/// Whether one of the 8 bytes of `raw` is 0xFF (a zero byte of ~raw; exact, no false alarms).
static inline bool has_ff(uint64_t raw) {
  return ((~raw - 0x0101010101010101ull) & raw & 0x8080808080808080ull) != 0;
}

/// The data byte after data byte `byte`: past the stuffed 0x00 (and any fill bytes) after a
/// 0xFF. At a marker (0xFF not followed by 0x00) the data has ended: positions go on byte by
/// byte, reading zeros, and are then found past the end.
static inline uint64_t next_data_byte(const scan_bits *scan, uint64_t byte) {
  if (byte >= scan->end || scan->bytes[byte] != 0xff) return byte + 1;
  uint64_t next = byte + 1;
  while (next < scan->end && scan->bytes[next] == 0xff) next++;
  return next < scan->end && scan->bytes[next] == 0x00 ? next + 1 : byte + 1;
}

/// The 64 data bits at `position`, a byte at a time (near 0xFF bytes, markers and the end).
static uint64_t window_slow(const scan_bits *scan, uint64_t position) {
  uint64_t byte = position >> 3, high = 0;
  uint8_t last = 0;  // the ninth byte, for the bits a bit offset pulls in
  bool ended = false;
  for (int count = 0; count < 9; count++) {
    uint8_t value = 0;
    if (!ended && byte < scan->end) {
      value = scan->bytes[byte];
      uint64_t next = next_data_byte(scan, byte);
      // 0xFF followed by anything but fill bytes and 0x00 is a marker: zeros from there.
      if (value == 0xff && next == byte + 1) {
        value = 0;
        ended = true;
      }
      byte = next;
    }
    if (count < 8) {
      high = high << 8 | value;
    } else {
      last = value;
    }
  }
  int offset = (int)(position & 7);
  return offset ? high << offset | last >> (8 - offset) : high;
}

/// `bits` data bits after `position`, a byte at a time.
static uint64_t advance_slow(const scan_bits *scan, uint64_t position, unsigned bits) {
  uint64_t byte = position >> 3;
  unsigned bit = (unsigned)(position & 7) + bits;
  for (; bit >= 8; bit -= 8) byte = next_data_byte(scan, byte);
  return byte * 8 + bit;
}

/// The data bits at `position`, left-aligned: at least 57 of them (64 minus the bit offset in
/// the first byte). `*clean`: they came straight from 8 bytes holding no 0xFF, so `position`
/// plus up to 57 bits is a plain addition.
static inline uint64_t load_window(const scan_bits *scan, uint64_t position, bool *clean) {
  uint64_t byte = position >> 3;
  if (byte + 8 <= scan->end) {
    uint64_t raw;
    memcpy(&raw, scan->bytes + byte, 8);
    if (!has_ff(raw)) {
      *clean = true;
      return __builtin_bswap64(raw) << (position & 7);
    }
  }
  *clean = false;
  return window_slow(scan, position);
}

/// `position` moved on by `bits` data bits of a window loaded there (`clean` as it said).
static inline uint64_t advance(const scan_bits *scan, uint64_t position, unsigned bits,
                               bool clean) {
  return clean ? position + bits : advance_slow(scan, position, bits);
}

/// `position` moved on to the start of a data byte (itself when it is one): where padding ends.
static uint64_t align_to_byte(const scan_bits *scan, uint64_t position) {
  return position & 7 ? next_data_byte(scan, position >> 3) * 8 : position;
}

/// Whether coded data that ends at `position` leaves only the padding of its last byte before
/// byte `end` (a marker): more is data no block claims (libjpeg warns).
static bool ends_before(const scan_bits *scan, uint64_t position, uint64_t end) {
  return position <= end * 8 && align_to_byte(scan, position) == end * 8;
}

/// The Huffman value whose code starts `word` (the next 32 bits) and the code's length, or -1
/// for a code the table does not have.
static inline int huffman_symbol(const huffman_table *table, uint32_t word, int *length) {
  uint16_t entry = table->lookahead[word >> (32 - LOOKAHEAD)];
  if (entry != 0) {
    *length = entry >> 8;
    return entry & 0xff;
  }
  for (int size = LOOKAHEAD + 1; size <= 16; size++) {
    int32_t code = (int32_t)(word >> (32 - size));
    if (code <= table->max_code[size]) {
      *length = size;
      int index = code + table->value_offset[size];
      return index >= 0 && index < table->value_count ? table->values[index] : -1;
    }
  }
  return -1;
}

/// The signed value of `size` raw bits as JPEG codes them (a leading 0 bit means negative).
static inline int32_t extend(uint32_t raw, int size) {
  return raw < (1u << (size - 1)) ? (int32_t)raw - (int32_t)((1u << size) - 1) : (int32_t)raw;
}

/// A stuffed entropy-coded segment being written (0xFF followed by 0x00).
typedef struct bit_writer {
  uint8_t *bytes;
  size_t length, capacity;
  uint64_t accumulator;
  int pending;
  bool failed;
} bit_writer;

/// Room for at least `*capacity` bytes (set to how many) that free() releases. From 1 MB on,
/// page-aligned and in whole pages, so the meme can be written to its files with O_DIRECT
/// straight from it. Left in small pages: see PageMapping in MemeSystem for why not huge ones.
static uint8_t *writer_room(size_t *capacity) {
  const size_t page = 4096;
  if (*capacity < ((size_t)1 << 20)) return malloc(*capacity);
  size_t rounded = (*capacity + page - 1) & ~(page - 1);
  void *room = NULL;
  if (rounded < *capacity || posix_memalign(&room, page, rounded) != 0) return NULL;
  *capacity = rounded;
  return room;
}

static bool writer_reserve(bit_writer *writer, size_t more) {
  if (writer->failed) return false;
  if (writer->length + more <= writer->capacity) return true;
  size_t capacity = writer->capacity ? writer->capacity : 4096;
  while (capacity < writer->length + more) capacity *= 2;
  uint8_t *grown = realloc(writer->bytes, capacity);
  if (grown == NULL) {
    writer->failed = true;
    return false;
  }
  writer->bytes = grown;
  writer->capacity = capacity;
  return true;
}

static void writer_bytes(bit_writer *writer, const void *bytes, size_t count) {
  if (!writer_reserve(writer, count)) return;
  memcpy(writer->bytes + writer->length, bytes, count);
  writer->length += count;
}

/// Appends the low `count` (≤ 56) bits of `value`, stuffing a zero after every 0xFF byte.
static inline void put_bits(bit_writer *writer, uint64_t value, int count) {
  if (count == 0) return;
  if (writer->length + 16 > writer->capacity && !writer_reserve(writer, 16)) return;
  writer->accumulator = (writer->accumulator << count) | (value & ((1ull << count) - 1));
  writer->pending += count;
  while (writer->pending >= 8) {
    uint8_t byte = (uint8_t)(writer->accumulator >> (writer->pending - 8));
    writer->bytes[writer->length++] = byte;
    if (byte == 0xff) writer->bytes[writer->length++] = 0;
    writer->pending -= 8;
  }
}

/// Pads the last byte with 1 bits, as JPEG encoders do before a marker.
static void flush_bits(bit_writer *writer) {
  if (writer->pending > 0) put_bits(writer, 0x7f, 8 - writer->pending);
}

/// Appends 56 bits: the 7 bytes they complete stored at once when none of them is 0xFF (no
/// stuffing), through put_bits otherwise.
static inline void put_56_bits(bit_writer *writer, uint64_t chunk) {
  if (writer->length + 16 > writer->capacity && !writer_reserve(writer, 16)) return;
  int pending = writer->pending;
  // The 7 whole bytes: the pending bits, then the chunk's first 56 - pending bits.
  uint64_t pending_bits = pending ? writer->accumulator & ((1ull << pending) - 1) : 0;
  uint64_t bytes = (pending_bits << (56 - pending)) | (chunk >> pending);
  if (has_ff(bytes << 8)) {
    put_bits(writer, chunk, 56);
    return;
  }
  uint64_t out = __builtin_bswap64(bytes << 8);
  memcpy(writer->bytes + writer->length, &out, 8);
  writer->length += 7;
  writer->accumulator = chunk;
}

/// Copies the data bits `from ..< to` of `scan` (positions as the index has them): 56 at a
/// time from 8 bytes holding no 0xFF, otherwise a byte at a time past the stuffing.
static void copy_bits(bit_writer *writer, const scan_bits *scan, uint64_t from, uint64_t to) {
  while (from < to) {
    uint64_t byte = from >> 3;
    if ((to >> 3) >= byte + 8 && byte + 8 <= scan->end) {
      uint64_t raw;
      memcpy(&raw, scan->bytes + byte, 8);
      if (!has_ff(raw)) {
        put_56_bits(writer, (__builtin_bswap64(raw) << (from & 7)) >> 8);
        from += 56;
        continue;
      }
    }
    int bit = (int)(from & 7);
    uint8_t value = byte < scan->end ? scan->bytes[byte] : 0;
    if ((to >> 3) == byte) {
      put_bits(writer, value >> (8 - (to & 7)), (int)(to & 7) - bit);
      return;
    }
    put_bits(writer, value, 8 - bit);
    from = next_data_byte(scan, byte) * 8;
  }
}

// MARK: - Headers

typedef struct component {
  uint8_t id, h, v, quant, dc, ac;
} component;

/// A marker segment between SOI and SOS: its marker and where its bytes are (marker included).
typedef struct segment {
  uint8_t marker;
  size_t offset, length;
} segment;

#define MAX_SEGMENTS 512

typedef struct jpeg_file {
  /// The file's bytes (`size` of them readable), the caller's: they must outlive an opened
  /// source, which reads its headers and entropy-coded data from them.
  const uint8_t *data;
  size_t size;
  /// The whole file's size.
  size_t file_size;
  uint32_t width, height;
  int components;
  component component[3];  // in scan order (which must be the frame's)
  int h_max, v_max;
  uint32_t mcu_width, mcu_height, mcus_across, mcu_rows;
  int blocks_per_mcu;
  uint16_t quant[4][64];  // zigzag order, as in DQT
  bool quant_defined[4];
  huffman_table dc[4], ac[4];
  segment segments[MAX_SEGMENTS];
  int segment_count;
  size_t sof_index;   // segments[] index of the frame header
  size_t scan_offset; // first byte of entropy-coded data
  bool jfif, adobe;
  int adobe_transform;
  size_t exif_offset, exif_size;
  size_t recipe_offset, recipe_size;
  /// Every table the scan uses has a code for every value baseline JPEG can need (as the
  /// standard tables do): libjpeg can then encode the touched rows with them directly.
  bool tables_complete;
  /// MCUs between restart markers (0: none); only whole rows of MCUs are spliced.
  uint32_t restart_interval;
  /// The AC tables' group tables (`huffman_table.group`), last: read_headers does not clear
  /// them (a DHT fills one whole), so the pages of tables a file does not define stay untouched.
  uint16_t ac_group[4][1 << GROUP_BITS];
} jpeg_file;

static uint32_t be16(const uint8_t *bytes) { return (uint32_t)bytes[0] << 8 | bytes[1]; }

static const char recipe_keyword[] = "memesh:recipe";

static bool is_memesh_recipe(const jpeg_file *file, const segment *part) {
  size_t keyword = sizeof recipe_keyword - 1;
  return part->marker == 0xfe && part->length >= 4 + keyword + 1 &&
         memcmp(file->data + part->offset + 4, recipe_keyword, keyword) == 0 &&
         file->data[part->offset + 4 + keyword] == ' ';
}

/// Reads a DHT segment's tables.
static memesh_splice_refusal read_dht(jpeg_file *file, const uint8_t *body, size_t length) {
  size_t at = 0;
  while (at < length) {
    if (length - at < 17) return MEMESH_SPLICE_DAMAGED;
    int class = body[at] >> 4, slot = body[at] & 15;
    if (class > 1 || slot > 3) return MEMESH_SPLICE_DAMAGED;
    huffman_table *table = class == 0 ? &file->dc[slot] : &file->ac[slot];
    if (class == 1) table->group = file->ac_group[slot];
    int total = 0;
    table->counts[0] = 0;
    for (int length = 1; length <= 16; length++) {
      table->counts[length] = body[at + length];
      total += body[at + length];
    }
    at += 17;
    if (total > 256 || length - at < (size_t)total) return MEMESH_SPLICE_DAMAGED;
    memcpy(table->values, body + at, (size_t)total);
    table->value_count = total;
    at += (size_t)total;
    if (!huffman_build(table)) return MEMESH_SPLICE_DAMAGED;
    table->defined = true;
  }
  return MEMESH_SPLICE_OK;
}

/// Reads a DQT segment's tables.
static memesh_splice_refusal read_dqt(jpeg_file *file, const uint8_t *body, size_t length) {
  size_t at = 0;
  while (at < length) {
    int precision = body[at] >> 4, slot = body[at] & 15;
    if (precision > 1 || slot > 3) return MEMESH_SPLICE_DAMAGED;
    size_t need = 1 + 64 * (size_t)(precision + 1);
    if (length - at < need) return MEMESH_SPLICE_DAMAGED;
    for (int index = 0; index < 64; index++) {
      file->quant[slot][index] = (uint16_t)(precision ? be16(body + at + 1 + 2 * index)
                                                      : body[at + 1 + index]);
      if (file->quant[slot][index] == 0) return MEMESH_SPLICE_DAMAGED;
    }
    file->quant_defined[slot] = true;
    at += need;
  }
  return MEMESH_SPLICE_OK;
}

static memesh_splice_refusal read_sof(jpeg_file *file, uint8_t marker, const uint8_t *body,
                                      size_t length) {
  if (marker == 0xc2 || marker == 0xc6) return MEMESH_SPLICE_PROGRESSIVE;
  if (marker >= 0xc9) return MEMESH_SPLICE_ARITHMETIC;
  if (marker != 0xc0 && marker != 0xc1) return MEMESH_SPLICE_UNSUPPORTED_FRAME;
  if (file->width != 0 || length < 6) return MEMESH_SPLICE_DAMAGED;
  int components = body[5];
  if (length < 6 + 3 * (size_t)components) return MEMESH_SPLICE_DAMAGED;
  if (components == 4) return MEMESH_SPLICE_CMYK;
  if (body[0] != 8 || (components != 1 && components != 3)) {
    return MEMESH_SPLICE_UNSUPPORTED_FRAME;
  }
  file->height = be16(body + 1);
  file->width = be16(body + 3);
  // A height of 0 is given later by a DNL marker.
  if (file->width == 0 || file->height == 0) return MEMESH_SPLICE_UNSUPPORTED_FRAME;
  file->components = components;
  file->h_max = file->v_max = 1;
  for (int index = 0; index < components; index++) {
    const uint8_t *entry = body + 6 + 3 * index;
    component *part = &file->component[index];
    part->id = entry[0];
    part->h = entry[1] >> 4;
    part->v = entry[1] & 15;
    part->quant = entry[2];
    if (part->h < 1 || part->h > 4 || part->v < 1 || part->v > 4 || part->quant > 3) {
      return MEMESH_SPLICE_DAMAGED;
    }
    if (part->h > file->h_max) file->h_max = part->h;
    if (part->v > file->v_max) file->v_max = part->v;
  }
  return MEMESH_SPLICE_OK;
}

/// Whether `table` has a code for every DC size (0–11) or every AC run/size value.
static bool table_complete(const huffman_table *table, bool ac) {
  if (!ac) {
    for (int size = 0; size <= 11; size++) {
      if (table->length[size] == 0) return false;
    }
    return true;
  }
  if (table->length[0x00] == 0 || table->length[0xf0] == 0) return false;
  for (int run = 0; run < 16; run++) {
    for (int size = 1; size <= 10; size++) {
      if (table->length[run << 4 | size] == 0) return false;
    }
  }
  return true;
}

/// Checks a SOS segment against the frame and notes each component's tables.
static memesh_splice_refusal read_sos(jpeg_file *file, const uint8_t *body, size_t length) {
  if (file->width == 0 || length < 1) return MEMESH_SPLICE_DAMAGED;
  int count = body[0];
  if (length < 1 + 2 * (size_t)count + 3) return MEMESH_SPLICE_DAMAGED;
  if (count != file->components) return MEMESH_SPLICE_SEVERAL_SCANS;
  for (int index = 0; index < count; index++) {
    component *part = &file->component[index];
    // Blocks come in scan order; libjpeg writes the frame's order, so they must agree.
    if (body[1 + 2 * index] != part->id) return MEMESH_SPLICE_UNSUPPORTED_FRAME;
    part->dc = body[2 + 2 * index] >> 4;
    part->ac = body[2 + 2 * index] & 15;
    if (part->dc > 3 || part->ac > 3 || !file->dc[part->dc].defined ||
        !file->ac[part->ac].defined || !file->quant_defined[part->quant]) {
      return MEMESH_SPLICE_DAMAGED;
    }
  }
  file->tables_complete = true;
  for (int index = 0; index < count; index++) {
    const component *part = &file->component[index];
    file->tables_complete &= table_complete(&file->dc[part->dc], false) &&
                             table_complete(&file->ac[part->ac], true);
  }
  const uint8_t *spectral = body + 1 + 2 * count;
  if (spectral[0] != 0 || spectral[1] != 63 || spectral[2] != 0) {
    return MEMESH_SPLICE_DAMAGED;
  }
  if (file->components == 1) {
    file->mcu_width = file->mcu_height = 8;
    file->blocks_per_mcu = 1;
  } else {
    file->mcu_width = 8u * (uint32_t)file->h_max;
    file->mcu_height = 8u * (uint32_t)file->v_max;
    file->blocks_per_mcu = 0;
    for (int index = 0; index < count; index++) {
      file->blocks_per_mcu += file->component[index].h * file->component[index].v;
    }
    if (file->blocks_per_mcu > 10) return MEMESH_SPLICE_DAMAGED;
  }
  file->mcus_across = (file->width + file->mcu_width - 1) / file->mcu_width;
  file->mcu_rows = (file->height + file->mcu_height - 1) / file->mcu_height;
  return MEMESH_SPLICE_OK;
}

/// Reads every marker from SOI to the first SOS; the file's bytes must outlive `file`.
static memesh_splice_refusal read_headers(jpeg_file *file, const uint8_t *data, size_t size,
                                          bool restarts_allowed) {
  memset(file, 0, offsetof(jpeg_file, ac_group));
  file->data = data;
  file->size = size;
  file->file_size = size;
  if (size < 4 || data[0] != 0xff || data[1] != 0xd8) return MEMESH_SPLICE_NOT_JPEG;
  size_t at = 2;
  for (;;) {
    // Fill bytes (0xFF) may come before a marker.
    while (at < size && data[at] == 0xff && at + 1 < size && data[at + 1] == 0xff) at++;
    if (size - at < 4 || data[at] != 0xff) return MEMESH_SPLICE_DAMAGED;
    uint8_t marker = data[at + 1];
    size_t length = be16(data + at + 2);
    if (length < 2 || size - at - 2 < length) return MEMESH_SPLICE_DAMAGED;
    const uint8_t *body = data + at + 4;
    size_t body_length = length - 2;
    if (file->segment_count == MAX_SEGMENTS) return MEMESH_SPLICE_DAMAGED;
    file->segments[file->segment_count] = (segment){marker, at, length + 2};
    memesh_splice_refusal refusal = MEMESH_SPLICE_OK;
    if (marker == 0xc4) {
      refusal = read_dht(file, body, body_length);
    } else if (marker == 0xdb) {
      refusal = read_dqt(file, body, body_length);
    } else if (marker == 0xcc) {
      refusal = MEMESH_SPLICE_ARITHMETIC;
    } else if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc8) {
      file->sof_index = (size_t)file->segment_count;
      refusal = read_sof(file, marker, body, body_length);
    } else if (marker == 0xdd) {
      if (body_length < 2) return MEMESH_SPLICE_DAMAGED;
      file->restart_interval = be16(body);
    } else if (marker == 0xe0 && body_length >= 5 && memcmp(body, "JFIF", 5) == 0) {
      file->jfif = true;
    } else if (marker == 0xee && body_length >= 12 && memcmp(body, "Adobe", 5) == 0) {
      file->adobe = true;
      file->adobe_transform = body[11];
    } else if (marker == 0xe1 && body_length > 6 && memcmp(body, "Exif\0\0", 6) == 0 &&
               file->exif_size == 0) {
      file->exif_offset = at + 4 + 6;
      file->exif_size = body_length - 6;
    } else if (marker == 0xda) {
      refusal = read_sos(file, body, body_length);
      if (refusal != MEMESH_SPLICE_OK) return refusal;
      // Restarts are followed when they fall at the ends of rows (as memesh writes them).
      if (file->restart_interval % file->mcus_across != 0 && !restarts_allowed) {
        return MEMESH_SPLICE_RESTARTS;
      }
      file->segment_count++;
      file->scan_offset = at + 2 + length;
      break;
    } else if (marker == 0xd8 || marker == 0xd9 || (marker >= 0xd0 && marker <= 0xd7) ||
               marker == 0x01 || marker == 0x00) {
      return MEMESH_SPLICE_DAMAGED;
    }
    if (refusal != MEMESH_SPLICE_OK) return refusal;
    if (is_memesh_recipe(file, &file->segments[file->segment_count]) &&
        file->recipe_size == 0) {
      file->recipe_offset = at + 4 + sizeof recipe_keyword;
      file->recipe_size = length - 2 - sizeof recipe_keyword;
    }
    file->segment_count++;
    at += 2 + length;
  }
  if (file->components == 3) {
    bool rgb_ids = file->component[0].id == 'R' && file->component[1].id == 'G' &&
                   file->component[2].id == 'B';
    if ((file->adobe && file->adobe_transform == 0 && !file->jfif) ||
        (!file->jfif && !file->adobe && rgb_ids)) {
      return MEMESH_SPLICE_RGB_COLOURS;
    }
  }
  return MEMESH_SPLICE_OK;
}

memesh_splice_refusal memesh_splice_inspect(const uint8_t *jpeg, size_t size,
                                            memesh_splice_layout *layout) {
  memset(layout, 0, sizeof *layout);
  jpeg_file *file = malloc(sizeof *file);
  if (file == NULL) return MEMESH_SPLICE_FAILED;
  memesh_splice_refusal refusal = read_headers(file, jpeg, size, false);
  if (refusal == MEMESH_SPLICE_OK) {
    *layout = (memesh_splice_layout){file->width,       file->height,      file->mcu_width,
                                     file->mcu_height, file->mcus_across, file->mcu_rows,
                                     file->exif_offset, file->exif_size,
                                     file->recipe_offset, file->recipe_size};
  }
  free(file);
  return refusal;
}

// MARK: - The scan index

/// Where each MCU starts in the entropy-coded data, which stays where the caller has it.
typedef struct scan_index {
  /// The entropy-coded data, in the caller's bytes (see scan_bits), and 8 × the offset of the
  /// marker that ends it: every position of a whole scan is at most this.
  const uint8_t *bits;
  uint64_t bit_count;
  /// Bit offset of MCU i (row-major); entry mcus_across × mcu_rows is the end. 32 bits: scans
  /// of 512 MB and more are refused.
  uint32_t *mcu_offset;
  /// Every block's DC value per component (MCU grid × the component's sampling). The DC
  /// predictors anywhere come from them (`predictors_after`).
  int16_t *dc[3];
  /// Bit offset just after each MCU row's last MCU (before a restart marker's padding).
  uint64_t *row_end;
  /// Byte offsets where each restart interval after the first starts (after its marker) and
  /// where the one before it ended (its marker, or the fill bytes before it), and how many.
  size_t *segment;
  size_t *segment_end;
  size_t segment_count;
  /// The first MCU the second thread indexed (0: the first thread did them all).
  size_t tail_mcu;
} scan_index;

static inline scan_bits scan_of(const scan_index *index) {
  return (scan_bits){index->bits, index->bit_count / 8};
}

static void scan_index_free(scan_index *index) {
  free(index->mcu_offset);
  free(index->row_end);
  free(index->segment);
  free(index->segment_end);
  for (int part = 0; part < 3; part++) free(index->dc[part]);
  memset(index, 0, sizeof *index);
}

/// Finds where the entropy-coded data from `file->scan_offset` ends (the marker that ends it,
/// which must be EOI) and where its restart markers are, without copying it: `index->bits`
/// then points into `file->data`, which must outlive the index.
static memesh_splice_refusal unstuff(const jpeg_file *file, scan_index *index) {
  const uint8_t *data = file->data + file->scan_offset;
  size_t size = file->size - file->scan_offset;
  size_t intervals = 0;
  if (file->restart_interval > 0) {
    size_t mcus = (size_t)file->mcus_across * file->mcu_rows;
    intervals = (mcus + file->restart_interval - 1) / file->restart_interval;
    index->segment = malloc((intervals + 1) * sizeof *index->segment);
    index->segment_end = malloc((intervals + 1) * sizeof *index->segment_end);
    if (index->segment == NULL || index->segment_end == NULL) return MEMESH_SPLICE_FAILED;
  }
  size_t at = 0;
  for (;;) {
    const uint8_t *mark = memchr(data + at, 0xff, size - at);
    if (mark == NULL) return MEMESH_SPLICE_DAMAGED;  // no EOI
    size_t start = (size_t)(mark - data);
    at = start + 1;
    // Fill bytes (0xFF) may come before the 0x00 or the marker (libjpeg skips them).
    while (at < size && data[at] == 0xff) at++;
    if (at >= size) return MEMESH_SPLICE_DAMAGED;
    uint8_t next = data[at];
    if (next == 0x00) {
      at++;
    } else if (next >= 0xd0 && next <= 0xd7 && index->segment_count + 1 < intervals &&
               next == 0xd0 + (index->segment_count & 7)) {
      index->segment_end[index->segment_count] = start;
      index->segment[index->segment_count++] = at + 1;  // the next interval starts here
      at++;
    } else {
      index->bits = data;
      index->bit_count = (uint64_t)start * 8;
      if (next == 0xd9) return MEMESH_SPLICE_OK;
      index->bits = NULL;
      // Another scan, a DNL or a restart marker where none were declared.
      return next == 0xda ? MEMESH_SPLICE_SEVERAL_SCANS : MEMESH_SPLICE_DAMAGED;
    }
  }
}

/// The AC codes of a block from coefficient `k` on (1: after its DC), when only where the block
/// ends matters: whole groups
/// of codes with their value bits per lookup (`huffman_table.group`) while they stay inside the
/// block, one code at a time otherwise. `*window` holds the unread bits of the window loaded at
/// `*at`, of which `*used` bits are read.
/// False for a code the table lacks, more than 10 value bits or a run past the 64th coefficient.
/// Always inlined, as skip_block is: the cursor then stays in registers from block to block.
static inline __attribute__((always_inline)) bool skip_ac(const scan_bits *scan,
                                                          const huffman_table *ac, uint64_t *at,
                                                          uint64_t *window, bool *clean,
                                                          int *used, int k) {
  const uint16_t *group = ac->group;
  uint64_t bits = *window;
  int consumed = *used;
  for (;;) {
    // The window holds 57 bits or more: three groups of GROUP_BITS each fit in what is left
    // unread, so they are looked up without checking in between.
    if (consumed > 57 - 3 * GROUP_BITS) {
      *at = advance(scan, *at, (unsigned)consumed, *clean);
      bits = load_window(scan, *at, clean);
      consumed = 0;
    }
    for (int step = 0; step < 3; step++) {
      uint16_t entry = group[bits >> (64 - GROUP_BITS)];
      int after = k + GROUP_COEFFICIENTS(entry);
      // A group stays inside the block (an end of block only before the 64th coefficient);
      // every group but a lone end of block covers a coefficient, so at k = 64 none is taken.
      if (entry == 0 || after > ((entry & GROUP_END) ? 63 : 64)) goto single;
      bits <<= GROUP_LENGTH(entry);
      consumed += GROUP_LENGTH(entry);
      if (entry & GROUP_END) goto done;
      k = after;
    }
    continue;
  single:
    if (k >= 64) break;
    // One code with its value bits (at most 27 bits).
    if (consumed > 30) {
      *at = advance(scan, *at, (unsigned)consumed, *clean);
      bits = load_window(scan, *at, clean);
      consumed = 0;
    }
    int length;
    int symbol = huffman_symbol(ac, (uint32_t)(bits >> 32), &length);
    if (symbol < 0 || (symbol & 15) > 10) return false;
    bits <<= length + (symbol & 15);
    consumed += length + (symbol & 15);
    if ((symbol & 15) == 0) {
      if (symbol != 0xf0) break;  // end of block
      k += 16;
    } else {
      k += (symbol >> 4) + 1;
    }
    if (k > 64) return false;
    if (k == 64) break;
  }
done:
  *window = bits;
  *used = consumed;
  return true;
}

/// Where indexing is in the data between blocks: `used` bits of the window loaded at `at`
/// (`clean` as load_window said) are read, and `window` holds the rest, left-aligned (each code
/// read shifts it, so the next lookup waits on one shift, not on a sum and a shift). One cursor
/// reads on from block to block and from MCU to MCU: a window is loaded again only when its bits
/// run low, not at every MCU.
typedef struct bit_cursor {
  uint64_t at, window;
  int used;
  bool clean;
} bit_cursor;

static inline void cursor_open(const scan_bits *scan, bit_cursor *cursor, uint64_t position) {
  cursor->at = position;
  cursor->used = 0;
  cursor->window = load_window(scan, position, &cursor->clean);
}

static inline uint64_t cursor_position(const scan_bits *scan, const bit_cursor *cursor) {
  return advance(scan, cursor->at, (unsigned)cursor->used, cursor->clean);
}

/// Whether the cursor is past bit `limit` (8 × the end of the data). A clean window holds no
/// bit past the data's end (it came from 8 bytes before it, and at most 57 of its bits are
/// read), so only another window needs its position worked out.
static inline bool cursor_past(const scan_bits *scan, const bit_cursor *cursor, uint64_t limit) {
  return !cursor->clean && cursor_position(scan, cursor) > limit;
}

/// A block's DC code and its value bits, read with the cursor when only its DC value matters
/// (indexing). False for a code the table lacks, more than 11 value bits or (with
/// `check_range`) a DC out of range.
static inline __attribute__((always_inline)) bool skip_dc(const scan_bits *scan,
                                                          bit_cursor *cursor,
                                                          const huffman_table *dc,
                                                          int32_t *predictor, bool check_range) {
  // The window is loaded again at every block: whether the bits the last block left are enough
  // depends on the picture, and a branch on it went wrong about as often as not.
  cursor_open(scan, cursor, cursor_position(scan, cursor));
  // A DC code (≤ 16 bits) and its value bits (≤ 11) fit in the next 32 bits.
  uint32_t word = (uint32_t)(cursor->window >> 32);
  int length;
  int size = huffman_symbol(dc, word, &length);
  if (size < 0 || size > 11) return false;
  // The value as `extend` makes it, without a branch on a size of 0 (no value bits: 0).
  int32_t raw = (int32_t)((uint64_t)(uint32_t)(word << length) >> (32 - size));
  int32_t half = (int32_t)((1u << size) >> 1);
  *predictor += raw < half ? raw - 2 * half + 1 : raw;
  cursor->window <<= length + size;
  cursor->used += length + size;
  return !check_range || (*predictor >= -32767 && *predictor <= 32767);
}

/// Reads one block's codes when only where it ends and its DC value matter (indexing). False
/// for a code the tables lack, a run past the 64th coefficient, more than 10 value bits or
/// (with `check_range`) a DC out of range.
static inline __attribute__((always_inline)) bool skip_block(const scan_bits *scan,
                                                             bit_cursor *cursor,
                                                             const huffman_table *dc,
                                                             const huffman_table *ac,
                                                             int32_t *predictor,
                                                             bool check_range) {
  return skip_dc(scan, cursor, dc, predictor, check_range) &&
         skip_ac(scan, ac, &cursor->at, &cursor->window, &cursor->clean, &cursor->used, 1);
}

/// One AC group of the block the cursor is in, at coefficient `*k`: 1 when it was taken and the
/// block goes on, 2 when it ended the block, 0 when the block must go on code by code (skip_ac).
static inline __attribute__((always_inline)) int skip_group(const uint16_t *group,
                                                            bit_cursor *cursor, int *k) {
  uint16_t entry = group[cursor->window >> (64 - GROUP_BITS)];
  int after = *k + GROUP_COEFFICIENTS(entry);
  if (entry == 0 || after > ((entry & GROUP_END) ? 63 : 64)) return 0;
  cursor->window <<= GROUP_LENGTH(entry);
  cursor->used += GROUP_LENGTH(entry);
  *k = after;
  return entry & GROUP_END ? 2 : 1;
}

/// skip_block (with `check_range`) for two blocks of independent streams coded with the same
/// tables: false when either does not add up. Each stream's codes are a chain of lookups (a
/// code's length says where the next starts), so one stream alone leaves the core waiting on
/// each lookup: the two blocks' AC groups are taken in turn while both go on, then each goes on
/// alone.
static inline __attribute__((always_inline)) bool skip_block_pair(const scan_bits *scan,
                                                                  bit_cursor *a, bit_cursor *b,
                                                                  const huffman_table *dc,
                                                                  const huffman_table *ac,
                                                                  int32_t *predictor_a,
                                                                  int32_t *predictor_b) {
  if (!skip_dc(scan, a, dc, predictor_a, true) || !skip_dc(scan, b, dc, predictor_b, true)) {
    return false;
  }
  const uint16_t *group = ac->group;
  int k[2] = {1, 1}, step[2];
  for (;;) {
    // Two groups of GROUP_BITS each fit in what is left unread of a window.
    if (a->used > 57 - 2 * GROUP_BITS) cursor_open(scan, a, cursor_position(scan, a));
    if (b->used > 57 - 2 * GROUP_BITS) cursor_open(scan, b, cursor_position(scan, b));
    step[0] = skip_group(group, a, &k[0]);
    step[1] = skip_group(group, b, &k[1]);
    if (step[0] != 1 || step[1] != 1) break;
    step[0] = skip_group(group, a, &k[0]);
    step[1] = skip_group(group, b, &k[1]);
    if (step[0] != 1 || step[1] != 1) break;
  }
  // A block that stopped on a group it could not take, or that the other stopped, goes on.
  return (step[0] == 2 || skip_ac(scan, ac, &a->at, &a->window, &a->clean, &a->used, k[0])) &&
         (step[1] == 2 || skip_ac(scan, ac, &b->at, &b->window, &b->clean, &b->used, k[1]));
}

/// Reads one block's codes and keeps its coefficients (zigzag order). False for a code the
/// tables lack, a run past the 64th coefficient or (with `check_range`) a DC out of range.
static inline bool read_block(const scan_bits *scan, uint64_t *position, const huffman_table *dc,
                              const huffman_table *ac, int32_t *predictor,
                              int16_t *coefficients, bool check_range) {
  uint64_t at = *position;
  bool clean;
  uint64_t window = load_window(scan, at, &clean);
  // A DC code (≤ 16 bits) and its value bits (≤ 11) fit in the window's first 32 bits.
  uint32_t word = (uint32_t)(window >> 32);
  int length;
  int size = huffman_symbol(dc, word, &length);
  if (size < 0 || size > 11) return false;
  if (size > 0) *predictor += extend((word << length) >> (32 - size), size);
  int used = length + size;
  if (check_range && (*predictor < -32767 || *predictor > 32767)) return false;
  memset(coefficients, 0, 64 * sizeof *coefficients);
  coefficients[0] = (int16_t)*predictor;
  for (int k = 1; k < 64; k++) {
    if (used > 30) {
      at = advance(scan, at, (unsigned)used, clean);
      window = load_window(scan, at, &clean);
      used = 0;
    }
    word = (uint32_t)((window << used) >> 32);
    int symbol = huffman_symbol(ac, word, &length);
    if (symbol < 0) return false;
    int run = symbol >> 4, bits_count = symbol & 15;
    if (bits_count == 0) {
      used += length;
      if (run != 15) break;  // end of block
      k += 15;
      if (k > 63) return false;
      continue;
    }
    k += run;
    if (k > 63 || bits_count > 10) return false;
    coefficients[k] = (int16_t)extend((word << length) >> (32 - bits_count), bits_count);
    used += length + bits_count;
  }
  *position = advance(scan, at, (unsigned)used, clean);
  return true;
}

/// Where block `h`, `v` of component `part` in MCU (`x`, `y`) goes in that component's DC grid.
static inline size_t dc_slot(const jpeg_file *file, int part, uint32_t x, uint32_t y, int h,
                             int v) {
  const component *c = &file->component[part];
  size_t across = (size_t)file->mcus_across * (file->components == 1 ? 1 : c->h);
  size_t row = (size_t)y * (file->components == 1 ? 1 : c->v) + (size_t)v;
  size_t column = (size_t)x * (file->components == 1 ? 1 : c->h) + (size_t)h;
  return row * across + column;
}

/// The DC predictors after MCU `mcu` (row-major): each component's last block's DC value in it.
static void predictors_after(const jpeg_file *file, const scan_index *index, size_t mcu,
                             int32_t predictor[3]) {
  uint32_t x = (uint32_t)(mcu % file->mcus_across), y = (uint32_t)(mcu / file->mcus_across);
  predictor[0] = predictor[1] = predictor[2] = 0;
  for (int part = 0; part < file->components; part++) {
    const component *c = &file->component[part];
    int h = file->components == 1 ? 0 : c->h - 1, v = file->components == 1 ? 0 : c->v - 1;
    predictor[part] = index->dc[part][dc_slot(file, part, x, y, h, v)];
  }
}

/// The DC predictors before MCU `mcu`: zeros at the start of the scan or of a restart interval.
static void predictors_before(const jpeg_file *file, const scan_index *index, size_t mcu,
                              int32_t predictor[3]) {
  if (mcu == 0 || (file->restart_interval > 0 && mcu % file->restart_interval == 0)) {
    predictor[0] = predictor[1] = predictor[2] = 0;
  } else {
    predictors_after(file, index, mcu - 1, predictor);
  }
}

/// Records where MCU (`x`, `y`) starts (the cursor's position), then reads its blocks with the
/// cursor, keeping each block's DC value. False when its coded data does not add up.
static inline bool index_mcu(const jpeg_file *file, scan_index *index, size_t mcu, uint32_t x,
                             uint32_t y, bit_cursor *cursor, int32_t predictor[3]) {
  scan_bits scan = scan_of(index);
  index->mcu_offset[mcu] = (uint32_t)cursor_position(&scan, cursor);
  for (int part = 0; part < file->components; part++) {
    const component *c = &file->component[part];
    int across = file->components == 1 ? 1 : c->h, down = file->components == 1 ? 1 : c->v;
    for (int v = 0; v < down; v++) {
      for (int h = 0; h < across; h++) {
        if (!skip_block(&scan, cursor, &file->dc[c->dc], &file->ac[c->ac], &predictor[part],
                        true) ||
            cursor_past(&scan, cursor, index->bit_count)) {
          return false;
        }
        index->dc[part][dc_slot(file, part, x, y, h, v)] = (int16_t)predictor[part];
      }
    }
  }
  return true;
}

/// index_mcu for two MCUs of independent streams, block by block in turn (skip_block_pair).
static inline bool index_mcu_pair(const jpeg_file *file, scan_index *index, const size_t mcu[2],
                                  bit_cursor cursor[2], int32_t predictor[2][3]) {
  scan_bits scan = scan_of(index);
  bit_cursor a = cursor[0], b = cursor[1];
  uint32_t x[2], y[2];
  for (int s = 0; s < 2; s++) {
    x[s] = (uint32_t)(mcu[s] % file->mcus_across);
    y[s] = (uint32_t)(mcu[s] / file->mcus_across);
  }
  index->mcu_offset[mcu[0]] = (uint32_t)cursor_position(&scan, &a);
  index->mcu_offset[mcu[1]] = (uint32_t)cursor_position(&scan, &b);
  bool whole = true;
  for (int part = 0; part < file->components && whole; part++) {
    const component *c = &file->component[part];
    int across = file->components == 1 ? 1 : c->h, down = file->components == 1 ? 1 : c->v;
    const huffman_table *dc = &file->dc[c->dc], *ac = &file->ac[c->ac];
    for (int v = 0; v < down && whole; v++) {
      for (int h = 0; h < across && whole; h++) {
        whole = skip_block_pair(&scan, &a, &b, dc, ac, &predictor[0][part], &predictor[1][part]) &&
                !cursor_past(&scan, &a, index->bit_count) &&
                !cursor_past(&scan, &b, index->bit_count);
        index->dc[part][dc_slot(file, part, x[0], y[0], h, v)] = (int16_t)predictor[0][part];
        index->dc[part][dc_slot(file, part, x[1], y[1], h, v)] = (int16_t)predictor[1][part];
      }
    }
  }
  cursor[0] = a;
  cursor[1] = b;
  return whole;
}

// MARK: - Later parts of the scan, on a second thread

/// The entropy-coded data has no markers to start from mid-way, but Huffman codes
/// resynchronise: decoding from a guessed bit position falls onto the real block boundaries
/// after a few blocks. While the first thread indexes from the beginning, a second indexes runs
/// of MCUs from guessed starts: the first run from the middle of the data to its end, then, while
/// the first thread is still far from the earliest run, another from halfway between the two,
/// which ends where it meets the run after it (an MCU start both reached). So the two threads
/// finish close together even when another thread takes a share of one core. Nothing of a guess
/// is trusted: the first thread takes over a run's results only from an MCU whose bit offset both
/// reached as an MCU start (from there both read the same bits the same way), follows the runs
/// from there to the end of the data, and adds up the DC differences the runs recorded (a run
/// cannot know the predictors) from its own predictors there. If they never meet, the first
/// thread indexes everything itself.
#define TAIL_RUNS 4
/// Another run is begun only in a gap of at least this fraction of the data.
#define TAIL_MIN_GAP 32

/// One run of the second thread.
typedef struct tail_run {
  /// Where it starts: a data byte's first bit.
  uint64_t start;
  /// MCU starts of the run's last unbroken stretch; offset[count] is where its last MCU ended.
  /// 32 bits, as the index's (build_index refuses larger scans).
  uint32_t *offset;
  /// Each block's DC difference (what its DC code adds to its component's predictor;
  /// blocks_per_mcu per MCU, in scan order): the DC values follow from the predictors where the
  /// run is taken over. 16 bits hold any (at most 11 value bits).
  int16_t *dc;
  size_t count;
  /// How it goes on after offset[count]: TAIL_END (that is the end of the data), TAIL_BROKEN
  /// (it broke off: of no use), or the run it met there (the run begun before it, whose entry
  /// `met` is at that offset).
  int next;
  size_t met;
} tail_run;

#define TAIL_END -1
#define TAIL_BROKEN -2

typedef struct tail_index {
  const jpeg_file *file;
  scan_bits scan;
  /// MCU entries a run has room for (the frame's MCUs and one for the end).
  size_t capacity;
  tail_run run[TAIL_RUNS];
  /// Runs finished (release: they are final), and whether the thread has ended (no more come).
  int finished, over;
  /// Set by the first thread when it no longer needs the results.
  int stop;
  /// The bit offset of the MCU the first thread is at, where the next run is placed after; on a
  /// cache line of its own, as it is written for every MCU.
  _Alignas(64) uint64_t first_at;
} tail_index;

/// The first byte at or after `byte` that a position may point at (not a stuffed 0x00 or a
/// fill byte).
static uint64_t data_byte_from(const scan_bits *scan, uint64_t byte) {
  while (byte > 0 && byte < scan->end && scan->bytes[byte - 1] == 0xff) byte++;
  return byte;
}

/// Indexes run `r` from its start until the end of the data or, for a run after the first, an
/// MCU start of the run begun before it. A broken MCU (not on the blocks yet, or damaged data)
/// starts the stretch again one bit further on.
static void index_tail_run(tail_index *tail, int r) {
  const jpeg_file *file = tail->file;
  tail_run *run = &tail->run[r];
  const tail_run *ahead = r > 0 ? &tail->run[r - 1] : NULL;
  int32_t predictor[3] = {0, 0, 0};
  size_t count = 0, met = 0;
  run->next = TAIL_BROKEN;
  bit_cursor cursor;
  cursor_open(&tail->scan, &cursor, run->start);
  while (!__atomic_load_n(&tail->stop, __ATOMIC_RELAXED)) {
    uint64_t position = cursor_position(&tail->scan, &cursor);
    run->offset[count] = (uint32_t)position;
    if (ahead != NULL) {
      while (met < ahead->count && ahead->offset[met] < position) met++;
      if (ahead->offset[met] == position) {
        run->next = r - 1;
        run->met = met;
        break;
      }
    }
    if (align_to_byte(&tail->scan, position) >= tail->scan.end * 8) {
      run->next = TAIL_END;  // only an encoder's padding can be left
      break;
    }
    if (count + 1 == tail->capacity) break;  // more MCUs than the frame has
    bool whole = true;
    int16_t *dc = &run->dc[count * (size_t)file->blocks_per_mcu];
    for (int part = 0; part < file->components && whole; part++) {
      const component *c = &file->component[part];
      int blocks = file->components == 1 ? 1 : c->h * c->v;
      for (int block = 0; block < blocks && whole; block++) {
        int32_t before = predictor[part];
        whole = skip_block(&tail->scan, &cursor, &file->dc[c->dc], &file->ac[c->ac],
                           &predictor[part], false) &&
                !cursor_past(&tail->scan, &cursor, tail->scan.end * 8) &&
                // Relative DC values of a real scan stay within twice the DC range; bounding
                // them keeps a hostile scan's sums from overflowing.
                predictor[part] >= -65535 && predictor[part] <= 65535;
        *dc++ = (int16_t)(predictor[part] - before);
      }
    }
    if (whole) {
      count++;
    } else {
      cursor_open(&tail->scan, &cursor, advance_slow(&tail->scan, position, 1));
      count = 0;
      predictor[0] = predictor[1] = predictor[2] = 0;
    }
  }
  run->count = count;
}

/// The second thread: the first run from the middle, then one more run halfway between the
/// first thread and the latest run for as long as the gap is worth it.
static void *index_tail(void *argument) {
  tail_index *tail = argument;
  const jpeg_file *file = tail->file;
  uint64_t limit = tail->scan.end;  // the latest run's first byte
  for (int r = 0; r < TAIL_RUNS; r++) {
    uint64_t first = __atomic_load_n(&tail->first_at, __ATOMIC_RELAXED) / 8;
    if (first >= limit || (r > 0 && (tail->run[r - 1].next == TAIL_BROKEN ||
                                     limit - first < tail->scan.end / TAIL_MIN_GAP))) {
      break;
    }
    tail_run *run = &tail->run[r];
    run->offset = malloc(tail->capacity * sizeof *run->offset);
    run->dc = malloc(tail->capacity * (size_t)file->blocks_per_mcu * sizeof *run->dc);
    if (run->offset == NULL || run->dc == NULL) break;
    limit = data_byte_from(&tail->scan, first + (limit - first) / 2);
    run->start = limit * 8;
    index_tail_run(tail, r);
    __atomic_store_n(&tail->finished, r + 1, __ATOMIC_RELEASE);
  }
  __atomic_store_n(&tail->over, 1, __ATOMIC_RELEASE);
  return NULL;
}

/// The MCUs from entry `entry` of run `r` to the end of the data, following the runs it met;
/// SIZE_MAX when the runs do not reach the end.
static size_t tail_mcus(const tail_index *tail, int r, size_t entry) {
  size_t total = 0;
  for (;;) {
    const tail_run *run = &tail->run[r];
    total += run->count - entry;
    if (run->next == TAIL_END) return total;
    if (run->next == TAIL_BROKEN) return SIZE_MAX;
    entry = run->met;
    r = run->next;
  }
}

/// Fills the index from MCU `mcu` on with the entries of run `r` from `entry` on and of the runs
/// it met, the DC values summed from the predictors before it (`predictor`) and the blocks' DC
/// differences; `*end` gets where the data ended. False when a DC value comes out of range (which the first thread
/// would have refused too).
static bool adopt_tail(const jpeg_file *file, scan_index *index, const tail_index *tail, int r,
                       size_t entry, size_t mcu, const int32_t *predictor, uint64_t *end) {
  int32_t absolute[3] = {predictor[0], predictor[1], predictor[2]};
  for (;;) {
    const tail_run *run = &tail->run[r];
    // The MCU's place, moved on MCU by MCU (no division per MCU).
    uint32_t x = (uint32_t)(mcu % file->mcus_across), y = (uint32_t)(mcu / file->mcus_across);
    const int16_t *dc = &run->dc[entry * (size_t)file->blocks_per_mcu];
    for (; entry < run->count; entry++, mcu++) {
      index->mcu_offset[mcu] = run->offset[entry];
      for (int part = 0; part < file->components; part++) {
        const component *c = &file->component[part];
        int across = file->components == 1 ? 1 : c->h, down = file->components == 1 ? 1 : c->v;
        size_t row = (size_t)file->mcus_across * (size_t)across;
        int16_t *block = &index->dc[part][dc_slot(file, part, x, y, 0, 0)];
        for (int v = 0; v < down; v++, block += row) {
          for (int h = 0; h < across; h++) {
            absolute[part] += *dc++;
            if (absolute[part] < -32767 || absolute[part] > 32767) return false;
            block[h] = (int16_t)absolute[part];
          }
        }
      }
      if (++x == file->mcus_across) {
        x = 0;
        y++;
      }
    }
    if (run->next == TAIL_END) {
      *end = run->offset[run->count];
      index->mcu_offset[mcu] = (uint32_t)*end;
      return true;
    }
    entry = run->met;
    r = run->next;
  }
}

/// What the first thread knows of the second's runs.
typedef struct tail_watch {
  /// Per run: the first entry not behind the first thread, and whether it is of no use.
  size_t entry[TAIL_RUNS];
  bool passed[TAIL_RUNS];
} tail_watch;

/// Whether the first thread, at MCU `mcu` (bit `position`, `predictor` before it), took the
/// rest from a finished run: then the index is filled (`*damaged` when a DC value came out of
/// range) and `*end` is where the data ended. `*watching` goes false when no run can serve any
/// more.
static bool tail_meets(const jpeg_file *file, scan_index *index, const tail_index *tail,
                       tail_watch *watch, size_t mcu, uint64_t position,
                       const int32_t *predictor, bool *watching, bool *damaged, uint64_t *end) {
  int finished = __atomic_load_n(&tail->finished, __ATOMIC_ACQUIRE);
  bool over = __atomic_load_n(&tail->over, __ATOMIC_ACQUIRE);
  // The latest finished run starts earliest: nothing to meet before it.
  if (finished == 0 || position < tail->run[finished - 1].start) {
    if (over && finished == 0) *watching = false;
    return false;
  }
  size_t mcus = (size_t)file->mcus_across * file->mcu_rows;
  bool useful = false;
  for (int r = finished - 1; r >= 0; r--) {
    const tail_run *run = &tail->run[r];
    if (watch->passed[r] || tail_mcus(tail, r, 0) == SIZE_MAX) continue;
    size_t entry = watch->entry[r];
    while (entry < run->count && run->offset[entry] < position) entry++;
    watch->entry[r] = entry;
    if (run->offset[entry] < position) {
      watch->passed[r] = true;  // it ended behind this MCU
      continue;
    }
    if (run->offset[entry] == position) {
      // Met at an MCU start: the rest is the runs', unless they hold another number of MCUs
      // than the frame (then this thread goes on and finds out what is wrong).
      watch->passed[r] = true;
      if (tail_mcus(tail, r, entry) != mcus - mcu) continue;
      index->tail_mcu = mcu;
      *damaged = !adopt_tail(file, index, tail, r, entry, mcu, predictor, end);
      return true;
    }
    useful = true;
  }
  if (over && !useful) *watching = false;
  return false;
}

/// Scans with fewer MCUs than this are indexed on one thread (a thread costs more).
#define TAIL_MIN_MCUS 2048

// MARK: - Scans with restart markers

/// A scan with restart markers is indexed in chunks of restart intervals, each read from its
/// first byte (known from the markers) with DC prediction from zero, so nothing is guessed. On
/// a large scan the first thread claims chunks from the front and a second thread from the back
/// until they meet: a thread slowed by another sharing its core claims fewer.
typedef struct restart_chunks {
  const jpeg_file *file;
  scan_index *index;
  size_t intervals;
  /// Intervals per claim.
  size_t chunk;
  /// The first interval not claimed from the front (high 32 bits) and the end of those not
  /// claimed from the back (low 32 bits), claimed together by compare-and-swap.
  uint64_t claims;
  /// Set when an interval does not add up (the other thread then stops early).
  int damaged;
  /// The first interval the second thread indexed (`intervals`: none).
  size_t second_first;
  /// Where the last interval ended.
  uint64_t end;
} restart_chunks;

/// Claims the next chunk from the front or the back into `*first ..< *end`; false when none
/// is left.
static bool claim_chunk(restart_chunks *chunks, bool from_back, size_t *first, size_t *end) {
  uint64_t claims = __atomic_load_n(&chunks->claims, __ATOMIC_RELAXED);
  for (;;) {
    size_t front = (size_t)(claims >> 32), back = (size_t)(claims & 0xffffffffu);
    if (front >= back) return false;
    size_t take = back - front < chunks->chunk ? back - front : chunks->chunk;
    if (from_back) {
      *first = back - take;
      *end = back;
      back -= take;
    } else {
      *first = front;
      *end = front + take;
      front += take;
    }
    if (__atomic_compare_exchange_n(&chunks->claims, &claims, (uint64_t)front << 32 | back, false,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      return true;
    }
  }
}

/// Restart intervals being indexed from `part` up to `end`; `mcu` is the next MCU, `last` the
/// end of the interval it is in.
typedef struct interval_walk {
  size_t part, end, mcu, last;
  bit_cursor cursor;
  int32_t predictor[3];
} interval_walk;

/// Starts reading interval `walk->part`, which begins after restart marker `part` - 1.
static void interval_open(const restart_chunks *chunks, interval_walk *walk) {
  const jpeg_file *file = chunks->file;
  scan_bits scan = scan_of(chunks->index);
  size_t mcus = (size_t)file->mcus_across * file->mcu_rows;
  size_t interval = file->restart_interval;
  cursor_open(&scan, &walk->cursor,
              walk->part == 0 ? 0 : (uint64_t)chunks->index->segment[walk->part - 1] * 8);
  walk->predictor[0] = walk->predictor[1] = walk->predictor[2] = 0;
  walk->mcu = walk->part * interval;
  walk->last = (walk->part + 1) * interval < mcus ? (walk->part + 1) * interval : mcus;
}

/// After the walk's MCU was read: where its row ends, and at the end of its interval that only
/// padding is left before the marker, and the next interval opened. False when that is not so.
static bool interval_next(restart_chunks *chunks, interval_walk *walk) {
  const jpeg_file *file = chunks->file;
  scan_index *index = chunks->index;
  scan_bits scan = scan_of(index);
  if ((walk->mcu + 1) % file->mcus_across == 0) {
    index->row_end[walk->mcu / file->mcus_across] = cursor_position(&scan, &walk->cursor);
  }
  if (++walk->mcu < walk->last) return true;
  uint64_t position = cursor_position(&scan, &walk->cursor);
  if (walk->part + 1 == chunks->intervals) {
    chunks->end = position;
  } else if (!ends_before(&scan, position, index->segment_end[walk->part])) {
    return false;  // only the interval's padding may be left before its marker
  }
  if (++walk->part < walk->end) interval_open(chunks, walk);
  return true;
}

/// Indexes restart intervals `first ..< end`: false when they do not add up (a code the tables
/// lack, or more than an interval's padding before its marker). The first half and the second
/// are read at once, an MCU of each in turn (index_mcu_pair), then what is left of either.
static bool index_intervals(restart_chunks *chunks, size_t first, size_t end) {
  const jpeg_file *file = chunks->file;
  scan_index *index = chunks->index;
  size_t middle = first + (end - first + 1) / 2;
  interval_walk walk[2] = {{.part = first, .end = middle}, {.part = middle, .end = end}};
  for (int s = 0; s < 2; s++) {
    if (walk[s].part < walk[s].end) interval_open(chunks, &walk[s]);
  }
  while (walk[0].part < walk[0].end && walk[1].part < walk[1].end) {
    if (__atomic_load_n(&chunks->damaged, __ATOMIC_RELAXED)) return false;
    size_t mcu[2] = {walk[0].mcu, walk[1].mcu};
    bit_cursor cursor[2] = {walk[0].cursor, walk[1].cursor};
    int32_t predictor[2][3];
    memcpy(predictor[0], walk[0].predictor, sizeof predictor[0]);
    memcpy(predictor[1], walk[1].predictor, sizeof predictor[1]);
    if (!index_mcu_pair(file, index, mcu, cursor, predictor)) return false;
    for (int s = 0; s < 2; s++) {
      walk[s].cursor = cursor[s];
      memcpy(walk[s].predictor, predictor[s], sizeof predictor[s]);
      if (!interval_next(chunks, &walk[s])) return false;
    }
  }
  for (int s = 0; s < 2; s++) {
    while (walk[s].part < walk[s].end) {
      if (__atomic_load_n(&chunks->damaged, __ATOMIC_RELAXED)) return false;
      size_t mcu = walk[s].mcu;
      uint32_t x = (uint32_t)(mcu % file->mcus_across), y = (uint32_t)(mcu / file->mcus_across);
      if (!index_mcu(file, index, mcu, x, y, &walk[s].cursor, walk[s].predictor) ||
          !interval_next(chunks, &walk[s])) {
        return false;
      }
    }
  }
  return true;
}

/// Indexes chunks claimed from the front or the back until none is left or one is damaged.
static void index_chunks(restart_chunks *chunks, bool from_back) {
  size_t first, end;
  while (claim_chunk(chunks, from_back, &first, &end)) {
    if (from_back) chunks->second_first = first;
    if (!index_intervals(chunks, first, end)) {
      __atomic_store_n(&chunks->damaged, 1, __ATOMIC_RELAXED);
      return;
    }
  }
}

static void *index_chunks_from_back(void *argument) {
  index_chunks(argument, true);
  return NULL;
}

/// Indexes a scan with restart markers (see restart_chunks); `*end` gets where its data ended.
/// With `wait_for_second` (tests) the second thread indexes from the interval after the marker
/// nearest the middle to the end, waited for, and the first thread the rest.
static memesh_splice_refusal index_with_restarts(const jpeg_file *file, scan_index *index,
                                                 bool wait_for_second, uint64_t *end) {
  size_t mcus = (size_t)file->mcus_across * file->mcu_rows;
  size_t intervals = (mcus + file->restart_interval - 1) / file->restart_interval;
  // Every interval after the first begins after a marker of its own.
  if (index->segment_count + 1 != intervals) return MEMESH_SPLICE_DAMAGED;
  size_t middle = index->segment_count / 2 + 1;
  restart_chunks chunks = {.file = file,
                           .index = index,
                           .intervals = intervals,
                           // Two intervals at least: index_intervals reads two at once.
                           .chunk = intervals >= 128 ? intervals / 64 : 2,
                           .claims = intervals,
                           .second_first = intervals};
  pthread_t helper;
  bool helped = false;
  if (mcus >= TAIL_MIN_MCUS && intervals >= 2) {
    if (wait_for_second) chunks.claims = (uint64_t)middle << 32 | intervals;
    helped = pthread_create(&helper, NULL, index_chunks_from_back, &chunks) == 0;
    if (helped && wait_for_second) {
      pthread_join(helper, NULL);
      helped = false;
      if (!chunks.damaged) chunks.claims = middle;
    } else if (!helped) {
      chunks.claims = intervals;
    }
  }
  index_chunks(&chunks, false);
  if (helped) pthread_join(helper, NULL);
  index->tail_mcu =
      chunks.second_first < intervals ? chunks.second_first * file->restart_interval : 0;
  if (chunks.damaged) return MEMESH_SPLICE_DAMAGED;
  *end = chunks.end;
  return MEMESH_SPLICE_OK;
}

/// Indexes every MCU of the scan: its bit offset, and each block's DC value. Reads every code
/// (there is no other way to find where a block ends) but keeps no coefficients and runs no
/// IDCT.
/// With `wait_for_tail` the first thread, once at the second's start, waits for it rather than
/// going on alone (tests use it to take the two-thread path every time).
static memesh_splice_refusal build_index(const jpeg_file *file, scan_index *index,
                                         bool wait_for_tail) {
  memesh_splice_refusal refusal = unstuff(file, index);
  if (refusal != MEMESH_SPLICE_OK) return refusal;
  // Bit offsets are kept in 32 bits.
  if (index->bit_count >= UINT32_MAX) return MEMESH_SPLICE_TOO_LARGE;
  // The group lookups of the AC tables the scan uses (headers read to plan a splice or to
  // check a band need none).
  bool grouped[4] = {false, false, false, false};
  for (int part = 0; part < file->components; part++) {
    int slot = file->component[part].ac;
    if (!grouped[slot]) huffman_build_groups(&file->ac[slot]);
    grouped[slot] = true;
  }
  size_t mcus = (size_t)file->mcus_across * file->mcu_rows;
  // Each block takes at least two bits (a DC code and an end of block): a header promising
  // more blocks than the data can hold is refused before anything is allocated for them.
  if (mcus * (size_t)file->blocks_per_mcu > index->bit_count / 2 + 1) {
    return MEMESH_SPLICE_DAMAGED;
  }
  index->mcu_offset = malloc((mcus + 1) * sizeof *index->mcu_offset);
  index->row_end = malloc((size_t)file->mcu_rows * sizeof *index->row_end);
  if (index->mcu_offset == NULL || index->row_end == NULL) return MEMESH_SPLICE_FAILED;
  for (int part = 0; part < file->components; part++) {
    const component *c = &file->component[part];
    size_t blocks = file->components == 1 ? mcus : mcus * (size_t)c->h * c->v;
    index->dc[part] = malloc(blocks * sizeof *index->dc[part]);
    if (index->dc[part] == NULL) return MEMESH_SPLICE_FAILED;
  }
  if (file->restart_interval > 0) {
    uint64_t end = 0;
    refusal = index_with_restarts(file, index, wait_for_tail, &end);
    if (refusal != MEMESH_SPLICE_OK) return refusal;
    index->mcu_offset[mcus] = (uint32_t)end;
    // An encoder pads the last byte with 1 bits; more is data no block claims (libjpeg warns).
    scan_bits scan = scan_of(index);
    return ends_before(&scan, end, scan.end) ? MEMESH_SPLICE_OK : MEMESH_SPLICE_DAMAGED;
  }
  scan_bits scan = scan_of(index);
  bit_cursor reader;
  cursor_open(&scan, &reader, 0);
  uint64_t position = 0;
  int32_t predictor[3] = {0, 0, 0};
  size_t mcu = 0;
  // Later parts on a second thread (see tail_index), for a large scan.
  tail_index tail = {.file = file, .scan = scan, .capacity = mcus + 1};
  tail_watch watch = {0};
  pthread_t helper;
  bool helped = false, watching = false, adopted = false;
  if (mcus >= TAIL_MIN_MCUS) {
    helped = pthread_create(&helper, NULL, index_tail, &tail) == 0;
    watching = helped;
    if (helped && wait_for_tail) {
      // Every run the second thread would begin with the first thread at the start.
      pthread_join(helper, NULL);
      helped = false;
    }
  }
  for (uint32_t y = 0; y < file->mcu_rows && refusal == MEMESH_SPLICE_OK && !adopted; y++) {
    for (uint32_t x = 0; x < file->mcus_across; x++, mcu++) {
      position = cursor_position(&scan, &reader);
      if (watching) {
        __atomic_store_n(&tail.first_at, position, __ATOMIC_RELAXED);
        bool damaged = false;
        if (tail_meets(file, index, &tail, &watch, mcu, position, predictor, &watching, &damaged,
                       &position)) {
          adopted = true;
          if (damaged) refusal = MEMESH_SPLICE_DAMAGED;
          mcu = mcus;
          break;
        }
      }
      if (!index_mcu(file, index, mcu, x, y, &reader, predictor)) {
        refusal = MEMESH_SPLICE_DAMAGED;
        goto scanned;
      }
    }
  }
scanned:
  if (helped) {
    __atomic_store_n(&tail.stop, 1, __ATOMIC_RELAXED);
    pthread_join(helper, NULL);
  }
  for (int r = 0; r < TAIL_RUNS; r++) {
    free(tail.run[r].offset);
    free(tail.run[r].dc);
  }
  if (refusal != MEMESH_SPLICE_OK) return refusal;
  if (!adopted) {
    position = cursor_position(&scan, &reader);
    index->mcu_offset[mcu] = (uint32_t)position;
  }
  // Without restarts a row ends where the next begins.
  for (uint32_t y = 0; y < file->mcu_rows; y++) {
    index->row_end[y] = index->mcu_offset[(size_t)(y + 1) * file->mcus_across];
  }
  // An encoder pads the last byte with 1 bits; more is data no block claims (libjpeg warns).
  if (!ends_before(&scan, position, scan.end)) return MEMESH_SPLICE_DAMAGED;
  return MEMESH_SPLICE_OK;
}

// MARK: - Writing blocks

/// Huffman-codes one block (zigzag coefficients) with `dc`/`ac`; false when a table has no
/// code for a value the block needs.
static bool write_block(bit_writer *writer, const int16_t *coefficients, int32_t *predictor,
                        const huffman_table *dc, const huffman_table *ac) {
  int32_t difference = coefficients[0] - *predictor;
  *predictor = coefficients[0];
  uint32_t magnitude = (uint32_t)(difference < 0 ? -difference : difference);
  int size = magnitude ? 32 - __builtin_clz(magnitude) : 0;
  if (size > 11 || dc->length[size] == 0) return false;
  put_bits(writer, dc->code[size], dc->length[size]);
  if (size) put_bits(writer, (uint32_t)(difference < 0 ? difference - 1 : difference), size);
  int run = 0;
  for (int k = 1; k < 64; k++) {
    int32_t value = coefficients[k];
    if (value == 0) {
      run++;
      continue;
    }
    while (run > 15) {
      if (ac->length[0xf0] == 0) return false;
      put_bits(writer, ac->code[0xf0], ac->length[0xf0]);
      run -= 16;
    }
    magnitude = (uint32_t)(value < 0 ? -value : value);
    size = 32 - __builtin_clz(magnitude);
    if (size > 10) return false;
    int symbol = run << 4 | size;
    if (ac->length[symbol] == 0) return false;
    put_bits(writer, ac->code[symbol], ac->length[symbol]);
    put_bits(writer, (uint32_t)(value < 0 ? value - 1 : value), size);
    run = 0;
  }
  if (run > 0) {
    if (ac->length[0] == 0) return false;
    put_bits(writer, ac->code[0], ac->length[0]);
  }
  return true;
}

/// Re-codes one MCU read from `source` at `*position` into `writer` with `target`'s tables,
/// continuing `target_predictor`; `bits` and `bit_count` as `scan_index` has them. Returns
/// MEMESH_SPLICE_TABLES when a code is missing.
static memesh_splice_refusal recode_mcu(const jpeg_file *source, const uint8_t *bits,
                                        uint64_t *position, uint64_t bit_count,
                                        int32_t *source_predictor, const jpeg_file *target,
                                        bit_writer *writer, int32_t *target_predictor) {
  int16_t coefficients[64];
  scan_bits scan = {bits, bit_count / 8};
  for (int part = 0; part < source->components; part++) {
    const component *from = &source->component[part];
    const component *to = &target->component[part];
    int blocks = source->components == 1 ? 1 : from->h * from->v;
    for (int block = 0; block < blocks; block++) {
      if (!read_block(&scan, position, &source->dc[from->dc], &source->ac[from->ac],
                      &source_predictor[part], coefficients, true) ||
          *position > bit_count) {
        return MEMESH_SPLICE_DAMAGED;
      }
      if (!write_block(writer, coefficients, &target_predictor[part], &target->dc[to->dc],
                       &target->ac[to->ac])) {
        return MEMESH_SPLICE_TABLES;
      }
    }
  }
  return MEMESH_SPLICE_OK;
}

/// Copies MCUs `first ..< end` of row `row` as they are coded in `file`, continuing the
/// writer's DC predictors `predictor`: when they differ from the ones the source had there, the
/// first MCU is re-coded (same coefficients, new DC differences) and the rest copied as bits.
static memesh_splice_refusal copy_mcus(const jpeg_file *file, const scan_index *index,
                                       uint32_t row, uint32_t first, uint32_t end,
                                       bit_writer *writer, int32_t *predictor) {
  size_t start = (size_t)row * file->mcus_across + first;
  size_t stop = (size_t)row * file->mcus_across + end;
  int32_t expected[3];
  predictors_before(file, index, start, expected);
  bool same = true;
  for (int part = 0; part < file->components; part++) same &= expected[part] == predictor[part];
  uint64_t from = index->mcu_offset[start];
  if (!same) {
    int32_t source_predictor[3] = {expected[0], expected[1], expected[2]};
    memesh_splice_refusal refusal = recode_mcu(file, index->bits, &from, index->bit_count,
                                               source_predictor, file, writer, predictor);
    if (refusal != MEMESH_SPLICE_OK) return refusal;
  }
  uint64_t to = end == file->mcus_across ? index->row_end[row] : index->mcu_offset[stop];
  scan_bits scan = scan_of(index);
  copy_bits(writer, &scan, from, to);
  // After the last MCU copied (before a restart marker resets them).
  predictors_after(file, index, stop - 1, predictor);
  return MEMESH_SPLICE_OK;
}

// MARK: - Headers out

static void write_segment(bit_writer *writer, const jpeg_file *file, const segment *part) {
  writer_bytes(writer, file->data + part->offset, part->length);
}

/// The frame header with another width and height.
static void write_sof(bit_writer *writer, const jpeg_file *file, uint32_t width,
                      uint32_t height) {
  const segment *sof = &file->segments[file->sof_index];
  if (!writer_reserve(writer, sof->length)) return;
  uint8_t *copy = writer->bytes + writer->length;
  memcpy(copy, file->data + sof->offset, sof->length);
  copy[5] = (uint8_t)(height >> 8);
  copy[6] = (uint8_t)height;
  copy[7] = (uint8_t)(width >> 8);
  copy[8] = (uint8_t)width;
  writer->length += sof->length;
}

/// SOI and every segment up to and including SOS, the frame resized. `keep_metadata` false keeps only what a
/// decoder needs (tables, frame, JFIF/Adobe colour markers) for a band's own small JPEG;
/// `recipe` (or NULL) goes in a COM segment after the APPn segments.
static bool write_headers(bit_writer *writer, const jpeg_file *file, uint32_t width,
                          uint32_t height, bool keep_metadata, const char *recipe,
                          uint32_t restart_interval) {
  writer_bytes(writer, "\xff\xd8", 2);
  bool recipe_written = recipe == NULL;
  for (int at = 0; at < file->segment_count; at++) {
    const segment *part = &file->segments[at];
    bool app = part->marker >= 0xe0 && part->marker <= 0xef;
    if (!recipe_written && !app) {
      size_t length = strlen(recipe);
      if (length + sizeof recipe_keyword + 2 > 65535) return false;
      uint32_t total = (uint32_t)(length + sizeof recipe_keyword + 2);
      uint8_t head[4] = {0xff, 0xfe, (uint8_t)(total >> 8), (uint8_t)total};
      writer_bytes(writer, head, 4);
      writer_bytes(writer, recipe_keyword, sizeof recipe_keyword - 1);
      writer_bytes(writer, " ", 1);
      writer_bytes(writer, recipe, length);
      recipe_written = true;
    }
    if (part->marker == 0xda && restart_interval > 0) {
      uint8_t dri[6] = {0xff, 0xdd, 0, 4, (uint8_t)(restart_interval >> 8),
                        (uint8_t)restart_interval};
      writer_bytes(writer, dri, sizeof dri);
    }
    if (part->marker == 0xdd) continue;  // the restart interval is the splice's own
    if ((size_t)at == file->sof_index) {
      write_sof(writer, file, width, height);
    } else if (keep_metadata) {
      if (!is_memesh_recipe(file, part)) write_segment(writer, file, part);
    } else if (!(app || part->marker == 0xfe) || part->marker == 0xe0 || part->marker == 0xee) {
      write_segment(writer, file, part);
    }
  }
  return !writer->failed;
}

// MARK: - libjpeg for the touched rows

/// Where the zigzag order's coefficient n sits in the natural (row-major) 8×8 order: DQT stores
/// tables in zigzag order, libjpeg's encoder takes them in natural order.
static const uint8_t natural_order[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

typedef struct band_codec {
  struct jpeg_error_mgr error;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
} band_codec;

static void band_error_exit(j_common_ptr info) {
  band_codec *codec = info->client_data;
  info->err->format_message(info, codec->message);
  longjmp(codec->jump, 1);
}

static void band_silent(j_common_ptr info) { (void)info; }

/// Sets up `encoder` for `width` × `height` pixels given as raw Y, Cb, Cr (or grey) sample rows
/// (jpeg_write_raw_data: no colour conversion, no downsampling) as a baseline JPEG with `file`'s
/// sampling and quantization tables, and its Huffman tables when they have a code for every
/// value (libjpeg's standard ones otherwise).
static void configure_band_encoder(const jpeg_file *file, struct jpeg_compress_struct *encoder,
                                   uint32_t width, uint32_t height) {
  encoder->image_width = width;
  encoder->image_height = height;
  encoder->input_components = file->components;
  encoder->in_color_space = file->components == 1 ? JCS_GRAYSCALE : JCS_YCbCr;
  jpeg_set_defaults(encoder);
  jpeg_set_colorspace(encoder, file->components == 1 ? JCS_GRAYSCALE : JCS_YCbCr);
  encoder->raw_data_in = TRUE;
  encoder->write_JFIF_header = FALSE;
  encoder->write_Adobe_marker = FALSE;
  encoder->optimize_coding = FALSE;
  // With the source's own tables, a restart marker after every MCU row as in the spliced file:
  // each row's bytes then go into it as they are.
  encoder->restart_in_rows = file->tables_complete ? 1 : 0;
  for (int slot = 0; file->tables_complete && slot < 4; slot++) {
    const huffman_table *from[2] = {&file->dc[slot], &file->ac[slot]};
    JHUFF_TBL **to[2] = {&encoder->dc_huff_tbl_ptrs[slot], &encoder->ac_huff_tbl_ptrs[slot]};
    for (int class = 0; class < 2; class++) {
      if (!from[class]->defined) continue;
      if (*to[class] == NULL) *to[class] = jpeg_alloc_huff_table((j_common_ptr)encoder);
      memcpy((*to[class])->bits, from[class]->counts, 17);
      (*to[class])->bits[0] = 0;
      memset((*to[class])->huffval, 0, sizeof (*to[class])->huffval);
      memcpy((*to[class])->huffval, from[class]->values, (size_t)from[class]->value_count);
    }
  }
  for (int slot = 0; slot < 4; slot++) {
    if (!file->quant_defined[slot]) continue;
    if (encoder->quant_tbl_ptrs[slot] == NULL) {
      encoder->quant_tbl_ptrs[slot] = jpeg_alloc_quant_table((j_common_ptr)encoder);
    }
    for (int index = 0; index < 64; index++) {
      encoder->quant_tbl_ptrs[slot]->quantval[natural_order[index]] = file->quant[slot][index];
    }
  }
  for (int part = 0; part < file->components; part++) {
    jpeg_component_info *info = &encoder->comp_info[part];
    info->h_samp_factor = file->components == 1 ? 1 : file->component[part].h;
    info->v_samp_factor = file->components == 1 ? 1 : file->component[part].v;
    info->quant_tbl_no = file->component[part].quant;
    if (file->tables_complete) {
      info->dc_tbl_no = file->component[part].dc;
      info->ac_tbl_no = file->component[part].ac;
    }
  }
}

/// One component's raw samples for one iMCU row of a band, and what drawing the captions at
/// full resolution needs when the component is subsampled.
typedef struct band_plane {
  JSAMPROW lines[32];
  /// Pixels per sample across and down (1 and 1: the samples are the pixels).
  uint32_t across, down;
  /// A subsampled component: `width` pixels of it at full resolution (the row being drawn),
  /// and per sample of the crop the sum of what the captions changed over its pixels (zero
  /// outside `changed_from ..< changed_to`).
  uint8_t *full;
  int32_t *change;
  uint32_t changed_from, changed_to;
} band_plane;

/// `samples[first ..< end]` repeated `across` times each into `full` (from `first * across`).
/// Inlined with a constant `across`, so the loops have no division.
static inline __attribute__((always_inline)) void spread_samples(uint8_t *restrict full,
                                                                 const uint8_t *restrict samples,
                                                                 uint32_t first, uint32_t end,
                                                                 uint32_t across) {
  for (uint32_t sample = first; sample < end; sample++) {
    for (uint32_t k = 0; k < across; k++) full[sample * across + k] = samples[sample];
  }
}

/// Adds to `change[sample]` how much the `across` pixels of each sample in `full` differ from it.
static inline __attribute__((always_inline)) void sum_changes(int32_t *restrict change,
                                                              const uint8_t *restrict full,
                                                              const uint8_t *restrict samples,
                                                              uint32_t first, uint32_t end,
                                                              uint32_t across) {
  for (uint32_t sample = first; sample < end; sample++) {
    int32_t total = 0;
    for (uint32_t k = 0; k < across; k++) total += full[sample * across + k];
    change[sample] += total - (int32_t)(samples[sample] * across);
  }
}

/// 32 pixels, 16 samples, and their sums and changes.
typedef uint8_t pixels32 __attribute__((vector_size(32)));
typedef uint8_t bytes16 __attribute__((vector_size(16)));
typedef int16_t sums16 __attribute__((vector_size(32)));
typedef int32_t changes16 __attribute__((vector_size(64)));

/// sum_changes for samples two pixels across (4:2:0 and 4:2:2 chroma), 16 samples at a time:
/// each pair's sum less twice its sample fits 16 bits, widened to 32 only to be added.
static inline void sum_pair_changes(int32_t *restrict change, const uint8_t *restrict full,
                                    const uint8_t *restrict samples, uint32_t first,
                                    uint32_t end) {
  uint32_t sample = first;
  for (; sample + 16 <= end; sample += 16) {
    pixels32 pixels;
    bytes16 own;
    changes16 total;
    memcpy(&pixels, full + (size_t)sample * 2, 32);
    memcpy(&own, samples + sample, 16);
    memcpy(&total, change + sample, 64);
    bytes16 left = __builtin_shufflevector(pixels, pixels, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                           22, 24, 26, 28, 30);
    bytes16 right = __builtin_shufflevector(pixels, pixels, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19,
                                            21, 23, 25, 27, 29, 31);
    sums16 difference = __builtin_convertvector(left, sums16) +
                        __builtin_convertvector(right, sums16) -
                        2 * __builtin_convertvector(own, sums16);
    total += __builtin_convertvector(difference, changes16);
    memcpy(change + sample, &total, 64);
  }
  sum_changes(change, full, samples, sample, end, 2);
}

/// Sets each of `samples[first ..< end]` to the mean of its `count` pixels (the sample times
/// `count` plus what `change` says the drawing added), rounded, and clears `change`. The mean is
/// (total + count / 2) / count as a multiplication (exact: count <= 16, total < 2^12). Inlined
/// with a constant `count` (a shift for 2 and 4), and the pointers restrict, so the loop
/// vectorizes.
static inline __attribute__((always_inline)) void settle_samples(uint8_t *restrict samples,
                                                                 int32_t *restrict change,
                                                                 uint32_t first, uint32_t end,
                                                                 uint32_t count) {
  uint32_t reciprocal = ((1u << 20) + count - 1) / count;
  for (uint32_t sample = first; sample < end; sample++) {
    uint32_t total = (uint32_t)((int32_t)(samples[sample] * count) + change[sample]);
    samples[sample] = (uint8_t)(((total + count / 2) * reciprocal) >> 20);
    change[sample] = 0;
  }
}

/// Draws the captions on pixel row `line` of the iMCU row in `planes` (meme row `row`, `width`
/// pixels). A component sampled at full resolution is drawn on in place; a subsampled one on its
/// samples repeated to full resolution, what changed summed per sample, and each sample set to
/// the mean of its pixels once its last row is drawn: libjpeg's box downsampling of the pixels
/// the RGB path would draw.
static void draw_band_line(const memesh_overlay *overlay, band_plane *planes, int components,
                           uint32_t line, uint32_t row, uint32_t width, bool draw,
                           uint8_t *masks) {
  uint32_t from = 0, to = 0;
  if (draw) memesh_overlay_row_span(overlay, row, width, &from, &to);
  if (from < to) {
    uint8_t *rows[3];
    for (int part = 0; part < components; part++) {
      band_plane *plane = &planes[part];
      uint8_t *samples = plane->lines[line / plane->down];
      rows[part] = plane->full != NULL ? plane->full : samples;
      if (plane->full == NULL) continue;
      // Whole samples: pixels outside `from ..< to` stay the sample and change nothing.
      uint32_t first = from / plane->across, end = (to - 1) / plane->across + 1;
      switch (plane->across) {
        case 1: spread_samples(plane->full, samples, first, end, 1); break;
        case 2: spread_samples(plane->full, samples, first, end, 2); break;
        case 4: spread_samples(plane->full, samples, first, end, 4); break;
        default: spread_samples(plane->full, samples, first, end, plane->across); break;
      }
      if (plane->changed_from == plane->changed_to) {
        plane->changed_from = first;
        plane->changed_to = end;
      }
      if (first < plane->changed_from) plane->changed_from = first;
      if (end > plane->changed_to) plane->changed_to = end;
    }
    memesh_overlay_draw_row_ycc(overlay, row, rows, components, width, masks);
    for (int part = 0; part < components; part++) {
      band_plane *plane = &planes[part];
      if (plane->full == NULL) continue;
      const uint8_t *samples = plane->lines[line / plane->down];
      uint32_t first = from / plane->across, end = (to - 1) / plane->across + 1;
      switch (plane->across) {
        case 1: sum_changes(plane->change, plane->full, samples, first, end, 1); break;
        case 2: sum_pair_changes(plane->change, plane->full, samples, first, end); break;
        case 4: sum_changes(plane->change, plane->full, samples, first, end, 4); break;
        default: sum_changes(plane->change, plane->full, samples, first, end, plane->across);
      }
    }
  }
  for (int part = 0; part < components; part++) {
    band_plane *plane = &planes[part];
    if (plane->full == NULL || line % plane->down != plane->down - 1 ||
        plane->changed_from == plane->changed_to) {
      continue;
    }
    uint8_t *samples = plane->lines[line / plane->down];
    uint32_t first = plane->changed_from, end = plane->changed_to;
    switch (plane->across * plane->down) {
      case 2: settle_samples(samples, plane->change, first, end, 2); break;
      case 4: settle_samples(samples, plane->change, first, end, 4); break;
      default: settle_samples(samples, plane->change, first, end, plane->across * plane->down);
    }
    plane->changed_from = plane->changed_to = 0;
  }
}

/// Decodes `jpeg` (a band of the source: its MCU rows, the crop's columns of them, as a small JPEG
/// of the crop's width and `source_height` rows) one iMCU row at a time as raw samples (no upsampling, no colour
/// conversion), draws the captions on the crop's part of each row (meme row `meme_top`
/// onwards) and encodes the crop's `height` rows again from the same samples
/// (`configure_band_encoder`) into `*out` (malloc'd by libjpeg's memory destination). Pixels no
/// caption touches go through one inverse and one forward DCT only. libjpeg longjmps on errors,
/// so the codec lives here.
static bool recode_band(const jpeg_file *file, const uint8_t *jpeg, size_t size,
                        uint32_t source_height, const memesh_splice_request *request,
                        uint32_t meme_top, uint32_t height, uint8_t **out,
                        unsigned long *out_size, char *message, size_t message_size) {
  struct jpeg_decompress_struct decoder;
  struct jpeg_compress_struct encoder;
  band_codec codec;
  band_plane planes[3] = {{.across = 1}, {.across = 1}, {.across = 1}};
  uint8_t *volatile memory = NULL;  // freed after a longjmp
  uint8_t *volatile room = NULL;    // the encoder's first output buffer (libjpeg's after it grows)
  uint8_t *masks = malloc((size_t)request->crop_width * 2 + 16);
  *out = NULL;
  *out_size = 0;
  message[0] = 0;
  if (masks == NULL) {
    snprintf(message, message_size, "out of memory");
    return false;
  }
  // One error manager for both: whichever fails jumps back here.
  decoder.err = jpeg_std_error(&codec.error);
  encoder.err = &codec.error;
  codec.error.error_exit = band_error_exit;
  codec.error.output_message = band_silent;
  jpeg_create_decompress(&decoder);
  decoder.client_data = &codec;
  jpeg_create_compress(&encoder);
  encoder.client_data = &codec;
  codec.message[0] = 0;
  if (setjmp(codec.jump)) {
    snprintf(message, message_size, "%s", codec.message);
    jpeg_destroy_decompress(&decoder);
    jpeg_destroy_compress(&encoder);
    if (*out != room) free(room);
    free(*out);
    *out = NULL;
    free(memory);
    free(masks);
    return false;
  }
  jpeg_mem_src(&decoder, jpeg, (unsigned long)size);
  jpeg_read_header(&decoder, TRUE);
  decoder.raw_data_out = TRUE;
  jpeg_start_decompress(&decoder);
  int components = decoder.num_components;
  uint32_t lines = (uint32_t)decoder.max_v_samp_factor * DCTSIZE;
  bool ok = decoder.output_width == request->crop_width && decoder.output_height == source_height &&
            height <= source_height && components == file->components && lines <= 32;
  if (!ok) snprintf(message, message_size, "a band decoded to an unexpected size");
  if (ok) {
    // Room for about what the rows had, so libjpeg seldom grows (copies) its buffer.
    *out_size = size + size / 4 + 65536;
    room = *out = malloc(*out_size);
    if (room == NULL) *out_size = 0;
    jpeg_mem_dest(&encoder, out, out_size);
    configure_band_encoder(file, &encoder, request->crop_width, height);
    jpeg_start_compress(&encoder, TRUE);
  }
  // Sample rows for one iMCU row, and full-resolution rows and sums for subsampled components.
  uint32_t encoder_lines = ok ? (uint32_t)encoder.max_v_samp_factor * DCTSIZE : 0;
  ok = ok && encoder_lines > 0 && lines % encoder_lines == 0;
  size_t total = 0, stride[3] = {0, 0, 0};
  size_t sums = ((size_t)request->crop_width + 8) * sizeof(int32_t);
  size_t full = ((size_t)request->crop_width + 32) & ~(size_t)7;
  for (int part = 0; ok && part < components; part++) {
    const jpeg_component_info *info = &decoder.comp_info[part];
    const jpeg_component_info *coded = &encoder.comp_info[part];
    planes[part] = (band_plane){.across = 1, .down = 1};
    if (components == 3) {
      // Encoded as decoded (the band's own sampling); drawn on at whole pixels per sample.
      ok = coded->h_samp_factor == info->h_samp_factor &&
           coded->v_samp_factor == info->v_samp_factor &&
           decoder.max_h_samp_factor % info->h_samp_factor == 0 &&
           decoder.max_v_samp_factor % info->v_samp_factor == 0;
      planes[part].across = (uint32_t)(decoder.max_h_samp_factor / info->h_samp_factor);
      planes[part].down = (uint32_t)(decoder.max_v_samp_factor / info->v_samp_factor);
    }
    stride[part] = (size_t)info->width_in_blocks * DCTSIZE;
    total += stride[part] * (size_t)info->v_samp_factor * DCTSIZE;
    if (planes[part].across * planes[part].down > 1) total += sums + full;
  }
  if (!ok && message[0] == 0) {
    snprintf(message, message_size, "a band has a sampling memesh cannot draw on");
  }
  if (ok) {
    memory = calloc(total, 1);
    ok = memory != NULL;
    if (!ok) snprintf(message, message_size, "out of memory");
  }
  for (size_t part = 0, at = 0; ok && part < (size_t)components; part++) {
    const jpeg_component_info *info = &decoder.comp_info[part];
    for (int line = 0; line < info->v_samp_factor * DCTSIZE; line++) {
      planes[part].lines[line] = memory + at;
      at += stride[part];
    }
    if (planes[part].across * planes[part].down > 1) {
      planes[part].change = (int32_t *)(void *)(memory + at);
      planes[part].full = memory + at + sums;
      at += sums + full;
    }
  }
  uint32_t first = 0;
  while (ok && encoder.next_scanline < height) {
    JSAMPARRAY decoded[3] = {planes[0].lines, planes[1].lines, planes[2].lines};
    ok = jpeg_read_raw_data(&decoder, decoded, lines) == lines;
    if (!ok) {
      snprintf(message, message_size, "a band ended early");
      break;
    }
    for (uint32_t line = 0; request->overlay != NULL && line < lines; line++) {
      uint32_t row = meme_top + first + line;
      draw_band_line(request->overlay, planes, components, line, row, request->crop_width,
                     first + line < height, masks);
    }
    // A grey band may be decoded in taller iMCU rows than it is encoded in.
    for (uint32_t part_line = 0; part_line < lines && encoder.next_scanline < height;
         part_line += encoder_lines) {
      JSAMPROW rows[3][32];
      JSAMPARRAY encoded[3] = {rows[0], rows[1], rows[2]};
      for (int part = 0; part < components; part++) {
        int count = encoder.comp_info[part].v_samp_factor * DCTSIZE;
        for (int line = 0; line < count; line++) {
          rows[part][line] = planes[part].lines[part_line + (uint32_t)line];
        }
      }
      jpeg_write_raw_data(&encoder, encoded, encoder_lines);
    }
    first += lines;
  }
  if (ok) jpeg_finish_compress(&encoder);
  jpeg_destroy_decompress(&decoder);
  jpeg_destroy_compress(&encoder);
  free(memory);
  free(masks);
  if (*out != room) free(room);
  if (!ok) {
    free(*out);
    *out = NULL;
  }
  return ok;
}

// MARK: - Splicing

static uint64_t now_ns(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

typedef struct splice_job {
  const jpeg_file *file;
  const scan_index *index;
  const memesh_splice_request *request;
  uint32_t first_column, end_column;  // MCU columns of the crop
  uint32_t first_row;                 // the source's MCU row of the crop's top
} splice_job;

/// A run of touched MCU rows (in the crop) and its rows as libjpeg encoded them.
typedef struct band {
  uint32_t row, end;
  uint8_t *encoded;
  unsigned long encoded_size;
  memesh_splice_refusal refusal;
  char message[160];
  /// Set (under the work's lock) once `encoded` and `refusal` are final.
  bool made;
} band;

/// Decodes the source's MCU rows of `part` (a small JPEG of just the crop's part of those rows:
/// the source's tables, their bits, DC prediction from zero), draws the captions on them and encodes them
/// with the source's sampling and quantization tables into `part->encoded`.
static void make_band(const splice_job *job, band *part) {
  const jpeg_file *file = job->file;
  const memesh_splice_request *request = job->request;
  uint32_t row = job->first_row + part->row, end = job->first_row + part->end;
  uint32_t top = row * file->mcu_height;
  uint32_t bottom = end * file->mcu_height < file->height ? end * file->mcu_height : file->height;
  uint32_t source_height = bottom - top;
  uint32_t meme_top = part->row * file->mcu_height;
  uint32_t meme_bottom = part->end * file->mcu_height;
  if (meme_bottom > request->crop_height) meme_bottom = request->crop_height;
  uint32_t height = meme_bottom - meme_top;
  part->refusal = MEMESH_SPLICE_OK;
  if (height > source_height) {
    part->refusal = MEMESH_SPLICE_DAMAGED;
    return;
  }
  // Room for the source's bytes of these rows and the headers (no copy as it grows).
  const scan_index *index = job->index;
  uint64_t bits = index->row_end[end - 1] - index->mcu_offset[(size_t)row * file->mcus_across];
  bit_writer small = {.capacity = file->scan_offset + bits / 8 + bits / 64 + 4096};
  small.bytes = malloc(small.capacity);
  if (small.bytes == NULL) small.capacity = 0;
  int32_t small_predictor[3] = {0, 0, 0};
  if (!write_headers(&small, file, request->crop_width, source_height, false, NULL, 0)) {
    part->refusal = MEMESH_SPLICE_FAILED;
    goto done;
  }
  for (uint32_t at = row; at < end && part->refusal == MEMESH_SPLICE_OK; at++) {
    part->refusal = copy_mcus(file, job->index, at, job->first_column, job->end_column, &small,
                              small_predictor);
  }
  if (part->refusal != MEMESH_SPLICE_OK) goto done;
  flush_bits(&small);
  writer_bytes(&small, "\xff\xd9", 2);
  if (small.failed) {
    part->refusal = MEMESH_SPLICE_FAILED;
    goto done;
  }
  if (!recode_band(file, small.bytes, small.length, source_height, request, meme_top, height,
                   &part->encoded, &part->encoded_size, part->message, sizeof part->message)) {
    part->refusal = MEMESH_SPLICE_FAILED;
  }
done:
  free(small.bytes);
}

/// Starts MCU row `row` (> 0) of the meme: pads the byte, then the restart marker before it,
/// RSTn with n = (row - 1) modulo 8 (one marker between each two rows).
static void write_restart(bit_writer *writer, uint32_t row) {
  flush_bits(writer);
  uint8_t marker[2] = {0xff, (uint8_t)(0xd0 + ((row - 1) & 7))};
  writer_bytes(writer, marker, 2);
}

/// Appends `part`'s rows, each after a restart marker (but a first row of the scan). With the
/// source's own tables libjpeg's bytes for each row are copied as they are; otherwise every
/// block is read back and Huffman-coded again with the source's tables. Why not: in
/// `part->message`.
static memesh_splice_refusal write_band(const splice_job *job, band *part, bit_writer *writer) {
  const jpeg_file *file = job->file;
  jpeg_file *encoded = malloc(sizeof *encoded);
  scan_index index = {0};
  memesh_splice_refusal refusal = MEMESH_SPLICE_FAILED;
  if (encoded == NULL) return refusal;
  uint32_t rows = part->end - part->row;
  if (read_headers(encoded, part->encoded, part->encoded_size, true) != MEMESH_SPLICE_OK) {
    snprintf(part->message, sizeof part->message, "libjpeg wrote a band memesh cannot read");
  } else if (encoded->components != file->components ||
             encoded->mcus_across != job->end_column - job->first_column ||
             encoded->mcu_rows != rows || encoded->mcu_width != file->mcu_width ||
             encoded->mcu_height != file->mcu_height) {
    snprintf(part->message, sizeof part->message, "libjpeg wrote a band of another layout");
  } else if (file->tables_complete) {
    // Rows between RSTn markers, up to EOI.
    const uint8_t *data = part->encoded;
    size_t at = encoded->scan_offset, start = at, size = part->encoded_size;
    uint32_t row = 0;
    while (at + 1 < size) {
      if (data[at] != 0xff || data[at + 1] == 0x00) {
        at += data[at] == 0xff ? 2 : 1;
        continue;
      }
      uint8_t marker = data[at + 1];
      if (marker != 0xd9 && (marker < 0xd0 || marker > 0xd7)) break;
      if (part->row + row > 0) write_restart(writer, part->row + row);
      writer_bytes(writer, data + start, at - start);
      row++;
      at += 2;
      start = at;
      if (marker == 0xd9) break;
    }
    if (row == rows && data[at - 1] == 0xd9) {
      refusal = MEMESH_SPLICE_OK;
    } else {
      snprintf(part->message, sizeof part->message, "libjpeg wrote a band of unexpected rows");
    }
  } else if (unstuff(encoded, &index) == MEMESH_SPLICE_OK) {
    refusal = MEMESH_SPLICE_OK;
    uint64_t position = 0;
    int32_t band_predictor[3] = {0, 0, 0};
    for (uint32_t row = 0; row < rows && refusal == MEMESH_SPLICE_OK; row++) {
      if (part->row + row > 0) write_restart(writer, part->row + row);
      int32_t predictor[3] = {0, 0, 0};
      for (uint32_t mcu = 0; mcu < encoded->mcus_across && refusal == MEMESH_SPLICE_OK; mcu++) {
        refusal = recode_mcu(encoded, index.bits, &position, index.bit_count, band_predictor,
                             file, writer, predictor);
      }
    }
  } else {
    snprintf(part->message, sizeof part->message, "libjpeg wrote a band memesh cannot read");
  }
  scan_index_free(&index);
  free(encoded);
  return refusal;
}

/// Splits `bands[0 ..< count]` (in row order, room for one per row) so that two threads share
/// them evenly: while there is an odd number of them, or one holds more than half of all the rows,
/// the largest is cut in two. A lone caption's rows then take both threads, and a band twice
/// another's does not leave one thread idle. The rows come out the same either way: each row is
/// coded on its own, after its restart marker. Returns the new count.
static uint32_t balance_bands(band *bands, uint32_t count) {
  uint32_t total = 0;
  for (uint32_t at = 0; at < count; at++) total += bands[at].end - bands[at].row;
  while (count > 0 && count < total) {
    uint32_t largest = 0;
    for (uint32_t at = 1; at < count; at++) {
      if (bands[at].end - bands[at].row > bands[largest].end - bands[largest].row) largest = at;
    }
    uint32_t size = bands[largest].end - bands[largest].row;
    if (size < 2 || (count % 2 == 0 && size * 2 <= total)) break;
    memmove(&bands[largest + 2], &bands[largest + 1], (count - largest - 1) * sizeof *bands);
    uint32_t middle = bands[largest].row + size / 2;
    bands[largest + 1] = (band){.row = middle, .end = bands[largest].end};
    bands[largest].end = middle;
    count++;
  }
  return count;
}

/// A piece of the meme's scan, in row order: a band's rows, or one row no caption touches. Its
/// bytes (its restart marker first, its last byte padded) depend on nothing written before it,
/// so any thread may write it.
typedef struct piece {
  uint32_t row;
  band *band;  // NULL: an untouched row, copied
  /// Where its bytes went: in place in the output (-1), or in that thread's side buffer.
  int side;
  size_t offset, length;
  memesh_splice_refusal refusal;
} piece;

/// The splice's work, shared by its two threads. Each first makes bands (libjpeg) while there
/// are bands to make, then writes pieces: the first thread from the front, in place in the
/// output, while the piece there is ready; otherwise, and the second thread always, from the
/// back into a side buffer of its own. The side buffers' pieces are then copied after the
/// output's, in order: the output is the same bytes whichever thread wrote what.
typedef struct splice_work {
  const splice_job *job;
  band *bands;
  uint32_t band_count;
  uint32_t next_band;  // taken with an atomic add
  piece *pieces;
  uint32_t piece_count;
  bit_writer *output;
  bit_writer side[2];
  pthread_mutex_t lock;
  pthread_cond_t band_made;
  /// Pieces not yet taken: front ..< back (under the lock).
  uint32_t front, back;
  /// A piece failed: the threads stop taking more (under the lock).
  bool failed;
  /// When the last band was made (under the lock).
  uint64_t bands_done_ns;
} splice_work;

/// Writes `part` to `writer`: a band as `write_band` does, a copied row after its restart
/// marker (its first MCU coded again for the DC prediction from zero, the rest as bits).
static memesh_splice_refusal write_piece(const splice_work *work, piece *part,
                                         bit_writer *writer) {
  const splice_job *job = work->job;
  memesh_splice_refusal refusal;
  if (part->band != NULL) {
    refusal = part->band->refusal;
    if (refusal == MEMESH_SPLICE_OK) refusal = write_band(job, part->band, writer);
    // Written: libjpeg's bytes are not needed again.
    free(part->band->encoded);
    part->band->encoded = NULL;
  } else {
    if (part->row > 0) write_restart(writer, part->row);
    int32_t predictor[3] = {0, 0, 0};
    refusal = copy_mcus(job->file, job->index, job->first_row + part->row, job->first_column,
                        job->end_column, writer, predictor);
  }
  flush_bits(writer);
  if (refusal == MEMESH_SPLICE_OK && writer->failed) refusal = MEMESH_SPLICE_FAILED;
  return refusal;
}

/// One thread's share of the splice (`thread` 0 writes in place, see `splice_work`).
static void splice_thread(splice_work *work, int thread) {
  for (;;) {
    uint32_t at = __atomic_fetch_add(&work->next_band, 1, __ATOMIC_RELAXED);
    if (at >= work->band_count) break;
    band *part = &work->bands[at];
    make_band(work->job, part);
    pthread_mutex_lock(&work->lock);
    part->made = true;
    work->bands_done_ns = now_ns();
    pthread_cond_broadcast(&work->band_made);
    pthread_mutex_unlock(&work->lock);
  }
  for (;;) {
    pthread_mutex_lock(&work->lock);
    if (work->failed || work->front >= work->back) {
      pthread_mutex_unlock(&work->lock);
      return;
    }
    piece *part;
    bit_writer *writer;
    const piece *first = &work->pieces[work->front];
    if (thread == 0 && (first->band == NULL || first->band->made)) {
      part = &work->pieces[work->front++];
      part->side = -1;
      writer = work->output;
    } else {
      part = &work->pieces[--work->back];
      part->side = thread;
      writer = &work->side[thread];
    }
    // Every band is being made by now: one not yet made is the other thread's, soon done.
    while (part->band != NULL && !part->band->made) {
      pthread_cond_wait(&work->band_made, &work->lock);
    }
    pthread_mutex_unlock(&work->lock);
    part->offset = writer->length;
    part->refusal = write_piece(work, part, writer);
    part->length = writer->length - part->offset;
    if (part->refusal != MEMESH_SPLICE_OK) {
      pthread_mutex_lock(&work->lock);
      work->failed = true;
      pthread_mutex_unlock(&work->lock);
    }
  }
}

static void *splice_helper(void *argument) {
  splice_thread(argument, 1);
  return NULL;
}

/// The crop `x, y, width × height` at 1/8 scale from each block's DC value (a block's mean is
/// DC × Q₀ / 8 + 128) into `pixels`: one pixel per 8×8 pixels of the crop, each component's
/// block found through per-column and per-row tables (no division per pixel), converted from
/// YCbCr with integer arithmetic. False when out of memory.
static bool dc_preview(const jpeg_file *file, const scan_index *index, uint32_t crop_x,
                       uint32_t crop_y, uint32_t width, uint32_t height, uint8_t *pixels) {
  uint32_t *columns = malloc((size_t)width * 3 * sizeof *columns);
  if (columns == NULL) return false;
  int64_t scale[3];  // Q₀ / 8 in 1/256ths
  size_t across[3], down[3];
  for (int part = 0; part < file->components; part++) {
    const component *c = &file->component[part];
    scale[part] = file->quant[c->quant][0] * 32;
    across[part] = (size_t)file->mcus_across * (file->components == 1 ? 1 : c->h);
    down[part] = (size_t)file->mcu_rows * (file->components == 1 ? 1 : c->v);
    for (uint32_t x = 0; x < width; x++) {
      size_t px = crop_x + (size_t)x * 8;
      size_t bx = file->components == 1 ? px / 8 : px * c->h / (size_t)file->h_max / 8;
      columns[(size_t)x * 3 + (size_t)part] = (uint32_t)(bx < across[part] ? bx : across[part] - 1);
    }
  }
  for (uint32_t y = 0; y < height; y++) {
    const int16_t *row[3] = {NULL, NULL, NULL};
    size_t py = crop_y + (size_t)y * 8;
    for (int part = 0; part < file->components; part++) {
      const component *c = &file->component[part];
      size_t by = file->components == 1 ? py / 8 : py * c->v / (size_t)file->v_max / 8;
      if (by >= down[part]) by = down[part] - 1;
      row[part] = index->dc[part] + by * across[part];
    }
    uint8_t *out = pixels + (size_t)y * width * 4;
    for (uint32_t x = 0; x < width; x++, out += 4) {
      // Luma and chroma offsets in 1/256ths, then the JFIF conversion in 1/65536ths.
      // 64 bits: a 16-bit quantization table's Q₀ times a DC near its limit overflows 32.
      int64_t luma = (int64_t)row[0][columns[(size_t)x * 3]] * scale[0] + (128 << 8);
      int64_t r = luma, g = luma, b = luma;
      if (file->components == 3) {
        int64_t cb = (int64_t)row[1][columns[(size_t)x * 3 + 1]] * scale[1];
        int64_t cr = (int64_t)row[2][columns[(size_t)x * 3 + 2]] * scale[2];
        r = luma + ((91881 * cr) >> 16);
        g = luma - ((22554 * cb + 46802 * cr) >> 16);
        b = luma + ((116130 * cb) >> 16);
      }
      int64_t channels[3] = {r, g, b};
      for (int channel = 0; channel < 3; channel++) {
        int64_t value = (channels[channel] + 128) >> 8;
        out[channel] = (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
      }
      out[3] = 255;
    }
  }
  free(columns);
  return true;
}

/// A JPEG read and indexed: its headers and its scan's MCU offsets, DC predictors and values.
/// Its headers and entropy-coded data are read where the caller keeps them (`file.data`).
struct memesh_splice_source {
  jpeg_file file;
  scan_index index;
};

memesh_splice_refusal memesh_splice_open(const uint8_t *jpeg, size_t size, uint64_t max_pixels,
                                         int threads, memesh_splice_source **opened,
                                         uint64_t *scan_ns) {
  *opened = NULL;
  memesh_splice_source *source = calloc(1, sizeof *source);
  if (source == NULL) return MEMESH_SPLICE_FAILED;
  uint64_t started = now_ns();
  memesh_splice_refusal refusal = read_headers(&source->file, jpeg, size, false);
  if (refusal == MEMESH_SPLICE_OK &&
      (uint64_t)source->file.width * source->file.height > max_pixels) {
    refusal = MEMESH_SPLICE_TOO_LARGE;
  }
  if (refusal == MEMESH_SPLICE_OK) {
    refusal = build_index(&source->file, &source->index, threads == 2);
  }
  if (refusal != MEMESH_SPLICE_OK) {
    memesh_splice_close(source);
    return refusal;
  }
  if (scan_ns != NULL) *scan_ns = now_ns() - started;
  *opened = source;
  return MEMESH_SPLICE_OK;
}

uint32_t memesh_splice_tail_mcu(const memesh_splice_source *source) {
  return (uint32_t)source->index.tail_mcu;
}

void memesh_splice_close(memesh_splice_source *source) {
  if (source == NULL) return;
  scan_index_free(&source->index);
  free(source);
}

memesh_splice_refusal memesh_splice_write(const memesh_splice_source *source,
                                          const memesh_splice_request *request,
                                          memesh_splice_result *result, char *message,
                                          size_t message_size) {
  memset(result, 0, sizeof *result);
  if (message_size > 0) message[0] = 0;
  const jpeg_file *file = &source->file;
  const scan_index *index = &source->index;
  bit_writer writer = {0};
  uint8_t *touched = NULL;
  band *bands = NULL;
  piece *pieces = NULL;
  uint32_t band_total = 0;
  memesh_splice_refusal refusal = MEMESH_SPLICE_OK;
  if (request->crop_x % file->mcu_width != 0 || request->crop_y % file->mcu_height != 0 ||
      request->crop_width == 0 || request->crop_height == 0 ||
      request->crop_x >= file->width || request->crop_y >= file->height ||
      request->crop_width > file->width - request->crop_x ||
      request->crop_height > file->height - request->crop_y) {
    refusal = MEMESH_SPLICE_UNALIGNED_CROP;
    goto done;
  }
  uint64_t started = now_ns();
  splice_job job = {file, index, request, request->crop_x / file->mcu_width, 0,
                    request->crop_y / file->mcu_height};
  job.end_column = job.first_column + (request->crop_width + file->mcu_width - 1) / file->mcu_width;
  uint32_t rows = (request->crop_height + file->mcu_height - 1) / file->mcu_height;
  result->mcu_rows = rows;
  // The MCU rows each caption's drawing reaches.
  touched = calloc(rows, 1);
  if (touched == NULL) {
    refusal = MEMESH_SPLICE_FAILED;
    goto done;
  }
  for (uint32_t layer = 0; request->overlay != NULL && layer < request->overlay->count; layer++) {
    int64_t top, bottom;
    if (!memesh_caption_layer_rows(&request->overlay->layers[layer], &top, &bottom) ||
        bottom <= 0 || top >= (int64_t)request->crop_height) {
      continue;
    }
    uint32_t first = top < 0 ? 0 : (uint32_t)top / file->mcu_height;
    uint32_t last = (uint32_t)(bottom - 1) / file->mcu_height;
    for (uint32_t row = first; row <= last && row < rows; row++) touched[row] = 1;
  }

  writer.capacity = file->file_size + file->file_size / 8 + 65536;
  writer.bytes = writer_room(&writer.capacity);
  if (writer.bytes == NULL ||
      !write_headers(&writer, file, request->crop_width, request->crop_height, true,
                     request->recipe, job.end_column - job.first_column)) {
    refusal = MEMESH_SPLICE_FAILED;
    goto done;
  }
  // The touched rows in runs; libjpeg's work on them (decode, draw, encode) on two threads.
  bands = calloc(rows, sizeof *bands);
  if (bands == NULL) {
    refusal = MEMESH_SPLICE_FAILED;
    goto done;
  }
  uint32_t band_count = 0;
  band_total = rows;
  for (uint32_t row = 0; row < rows; row++) {
    if (!touched[row]) continue;
    if (band_count > 0 && bands[band_count - 1].end == row) {
      bands[band_count - 1].end = row + 1;
    } else {
      bands[band_count++] = (band){.row = row, .end = row + 1};
    }
  }
  band_count = balance_bands(bands, band_count);
  // The pieces in row order: each band, and each row between them. Every MCU row comes after
  // a restart marker (DC prediction from zero): a copied row's first MCU is coded again for
  // that, the rest of its bits copied; a band's rows come whole.
  pieces = calloc(rows, sizeof *pieces);
  if (pieces == NULL) {
    refusal = MEMESH_SPLICE_FAILED;
    goto done;
  }
  uint32_t piece_count = 0;
  for (uint32_t row = 0, next_band = 0; row < rows; piece_count++) {
    bool starts_band = next_band < band_count && bands[next_band].row == row;
    pieces[piece_count] = (piece){.row = row, .band = starts_band ? &bands[next_band] : NULL};
    row = starts_band ? bands[next_band++].end : row + 1;
  }
  uint64_t band_started = now_ns();
  splice_work work = {.job = &job, .bands = bands, .band_count = band_count,
                      .pieces = pieces, .piece_count = piece_count, .output = &writer,
                      .back = piece_count, .bands_done_ns = band_started};
  pthread_mutex_init(&work.lock, NULL);
  pthread_cond_init(&work.band_made, NULL);
  // Room for about as many bytes as the source's, in pages only touched when written (small
  // ones: the output's are large).
  work.side[1].capacity = file->file_size;
  work.side[1].bytes = malloc(work.side[1].capacity);
  if (work.side[1].bytes == NULL) work.side[1].capacity = 0;
  pthread_t helper;
  bool helped = piece_count > 1 && pthread_create(&helper, NULL, splice_helper, &work) == 0;
  splice_thread(&work, 0);
  if (helped) pthread_join(helper, NULL);
  pthread_mutex_destroy(&work.lock);
  pthread_cond_destroy(&work.band_made);
  result->band_ns = work.bands_done_ns - band_started;
  for (uint32_t at = 0; at < band_count; at++) {
    result->touched_rows += bands[at].end - bands[at].row;
  }
  // The first piece that failed, in row order, says why (pieces after a failure may be left).
  for (uint32_t at = 0; at < piece_count && refusal == MEMESH_SPLICE_OK; at++) {
    refusal = pieces[at].refusal;
    if (refusal != MEMESH_SPLICE_OK && pieces[at].band != NULL) {
      snprintf(message, message_size, "%s", pieces[at].band->message);
    }
  }
  // The pieces written aside, after those written in place.
  for (uint32_t at = work.front; at < piece_count && refusal == MEMESH_SPLICE_OK; at++) {
    const bit_writer *side = &work.side[pieces[at].side];
    writer_bytes(&writer, side->bytes + pieces[at].offset, pieces[at].length);
  }
  free(work.side[0].bytes);
  free(work.side[1].bytes);
  if (refusal != MEMESH_SPLICE_OK) goto done;
  writer_bytes(&writer, "\xff\xd9", 2);
  if (writer.failed) {
    refusal = MEMESH_SPLICE_FAILED;
    goto done;
  }
  result->write_ns = now_ns() - started - result->band_ns;
  result->jpeg = writer.bytes;
  result->jpeg_size = writer.length;
  writer.bytes = NULL;
done:
  if (refusal == MEMESH_SPLICE_DAMAGED && message_size > 0 && message[0] == 0) {
    snprintf(message, message_size, "its markers or entropy-coded data do not add up");
  }
  for (uint32_t at = 0; bands != NULL && at < band_total; at++) free(bands[at].encoded);
  free(bands);
  free(pieces);
  free(touched);
  free(writer.bytes);
  return refusal;
}

bool memesh_splice_preview(const memesh_splice_source *source, uint32_t crop_x, uint32_t crop_y,
                           uint32_t crop_width, uint32_t crop_height, uint8_t *pixels) {
  const jpeg_file *file = &source->file;
  if (crop_width == 0 || crop_height == 0 || crop_x >= file->width || crop_y >= file->height ||
      crop_width > file->width - crop_x || crop_height > file->height - crop_y) {
    return false;
  }
  return dc_preview(file, &source->index, crop_x, crop_y, (crop_width + 7) / 8,
                    (crop_height + 7) / 8, pixels);
}

memesh_splice_refusal memesh_splice_jpeg(const uint8_t *jpeg, size_t size,
                                         const memesh_splice_request *request,
                                         memesh_splice_result *result, char *message,
                                         size_t message_size) {
  memset(result, 0, sizeof *result);
  if (message_size > 0) message[0] = 0;
  memesh_splice_source *source = NULL;
  uint64_t scan_ns = 0;
  memesh_splice_refusal refusal =
      memesh_splice_open(jpeg, size, request->max_pixels, 0, &source, &scan_ns);
  if (refusal == MEMESH_SPLICE_OK) {
    refusal = memesh_splice_write(source, request, result, message, message_size);
    result->scan_ns = scan_ns;
  }
  if (refusal == MEMESH_SPLICE_DAMAGED && message_size > 0 && message[0] == 0) {
    snprintf(message, message_size, "its markers or entropy-coded data do not add up");
  }
  memesh_splice_close(source);
  return refusal;
}

void memesh_splice_free(void *pointer) { free(pointer); }
