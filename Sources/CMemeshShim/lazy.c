/* Loads FreeType, HarfBuzz, fontconfig, chafa, GLib, libheif, libwebp, giflib, libunibreak,
   libthai and FriBiDi when memesh first calls into them, not at start: those (and what they
   pull in: graphite2, brotli, expat, pcre2; libde265, dav1d, aom, x265; libdatrie) cost the
   dynamic loader milliseconds at every start, and most commands (`quit`, `browse`, `show`,
   `delete`, completion) never draw a glyph, break a caption into lines, show a terminal picture
   or a phone photo, nor read a WebP or a GIF.

   Each function memesh calls in them is defined here as a two-instruction trampoline that jumps
   through a slot. A slot first holds a stub that saves the argument registers, loads the
   function's library (dlopen, once per library) and fills every slot of that library (dlsym on
   that library's handle, never the global scope, which would find these trampolines again),
   then jumps on to the real function. The trampolines are hidden: the libraries, once loaded,
   call each other directly, never through them. Linking with --as-needed (Package.swift) then
   leaves these libraries out of the executable's start-up list, because nothing else refers
   to them.

   A function not listed here still works: the linker takes it from the library as before, and
   that library is loaded at start again (`make bench` shows the start-up time). x86-64 Linux
   only; elsewhere this file is empty and the libraries are linked as usual. */

#if defined(__x86_64__) && defined(__linux__) && defined(__ELF__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum memesh_lazy_library {
  FREETYPE, HARFBUZZ, FONTCONFIG, CHAFA, GLIB, HEIF,
  WEBP, WEBPDEMUX, WEBPMUX, GIF,
  UNIBREAK, THAI, FRIBIDI,
  LIBRARY_COUNT
};

static const char *const library_names[LIBRARY_COUNT] = {
    "libfreetype.so.6", "libharfbuzz.so.0", "libfontconfig.so.1", "libchafa.so.0",
    "libglib-2.0.so.0", "libheif.so.1",
    "libwebp.so.7", "libwebpdemux.so.2", "libwebpmux.so.3", "libgif.so.7",
    "libunibreak.so.1", "libthai.so.0", "libfribidi.so.0"};

/* Every function memesh calls in these libraries (`nm -D --undefined-only memesh`). */
#define MEMESH_LAZY_FUNCTIONS(X)                                                                 \
  X(FREETYPE, FT_Done_Face)                                                                     \
  X(FREETYPE, FT_Done_FreeType)                                                                 \
  X(FREETYPE, FT_Done_Glyph)                                                                    \
  X(FREETYPE, FT_Done_MM_Var)                                                                   \
  X(FREETYPE, FT_Get_Glyph)                                                                     \
  X(FREETYPE, FT_Get_MM_Var)                                                                    \
  X(FREETYPE, FT_Glyph_Copy)                                                                    \
  X(FREETYPE, FT_Glyph_StrokeBorder)                                                            \
  X(FREETYPE, FT_Glyph_To_Bitmap)                                                               \
  X(FREETYPE, FT_Glyph_Transform)                                                               \
  X(FREETYPE, FT_Init_FreeType)                                                                 \
  X(FREETYPE, FT_Load_Glyph)                                                                    \
  X(FREETYPE, FT_New_Face)                                                                      \
  X(FREETYPE, FT_Select_Size)                                                                   \
  X(FREETYPE, FT_Set_Char_Size)                                                                 \
  X(FREETYPE, FT_Set_Var_Design_Coordinates)                                                    \
  X(FREETYPE, FT_Stroker_Done)                                                                  \
  X(FREETYPE, FT_Stroker_New)                                                                   \
  X(FREETYPE, FT_Stroker_Set)                                                                   \
  X(FONTCONFIG, FcCharSetAddChar)                                                               \
  X(FONTCONFIG, FcCharSetCreate)                                                                \
  X(FONTCONFIG, FcCharSetDestroy)                                                               \
  X(FONTCONFIG, FcCharSetHasChar)                                                               \
  X(FONTCONFIG, FcConfigDestroy)                                                                \
  X(FONTCONFIG, FcConfigSubstitute)                                                             \
  X(FONTCONFIG, FcDefaultSubstitute)                                                            \
  X(FONTCONFIG, FcFontList)                                                                     \
  X(FONTCONFIG, FcFontSetDestroy)                                                               \
  X(FONTCONFIG, FcFontSort)                                                                     \
  X(FONTCONFIG, FcInitLoadConfigAndFonts)                                                       \
  X(FONTCONFIG, FcObjectSetAdd)                                                                 \
  X(FONTCONFIG, FcObjectSetCreate)                                                              \
  X(FONTCONFIG, FcObjectSetDestroy)                                                             \
  X(FONTCONFIG, FcPatternAddBool)                                                               \
  X(FONTCONFIG, FcPatternAddCharSet)                                                            \
  X(FONTCONFIG, FcPatternAddInteger)                                                            \
  X(FONTCONFIG, FcPatternCreate)                                                                \
  X(FONTCONFIG, FcPatternDestroy)                                                               \
  X(FONTCONFIG, FcPatternGetCharSet)                                                            \
  X(FONTCONFIG, FcPatternGetInteger)                                                            \
  X(FONTCONFIG, FcPatternGetString)                                                             \
  X(CHAFA, chafa_canvas_config_new)                                                             \
  X(CHAFA, chafa_canvas_config_set_canvas_mode)                                                 \
  X(CHAFA, chafa_canvas_config_set_cell_geometry)                                               \
  X(CHAFA, chafa_canvas_config_set_color_space)                                                 \
  X(CHAFA, chafa_canvas_config_set_geometry)                                                    \
  X(CHAFA, chafa_canvas_config_set_optimizations)                                               \
  X(CHAFA, chafa_canvas_config_set_pixel_mode)                                                  \
  X(CHAFA, chafa_canvas_config_set_symbol_map)                                                  \
  X(CHAFA, chafa_canvas_config_unref)                                                           \
  X(CHAFA, chafa_canvas_draw_all_pixels)                                                        \
  X(CHAFA, chafa_canvas_new)                                                                    \
  X(CHAFA, chafa_canvas_print)                                                                  \
  X(CHAFA, chafa_canvas_unref)                                                                  \
  X(CHAFA, chafa_symbol_map_add_by_tags)                                                        \
  X(CHAFA, chafa_symbol_map_new)                                                                \
  X(CHAFA, chafa_symbol_map_remove_by_range)                                                    \
  X(CHAFA, chafa_symbol_map_remove_by_tags)                                                     \
  X(CHAFA, chafa_symbol_map_unref)                                                              \
  X(CHAFA, chafa_term_db_detect)                                                                \
  X(CHAFA, chafa_term_db_new)                                                                   \
  X(CHAFA, chafa_term_db_unref)                                                                 \
  X(CHAFA, chafa_term_info_have_seq)                                                            \
  X(CHAFA, chafa_term_info_supplement)                                                          \
  X(CHAFA, chafa_term_info_unref)                                                               \
  X(GLIB, g_compute_checksum_for_data)                                                          \
  X(GLIB, g_free)                                                                               \
  X(GLIB, g_strdup)                                                                             \
  X(GLIB, g_string_free)                                                                        \
  X(HARFBUZZ, hb_blob_create_from_file_or_fail)                                                 \
  X(HARFBUZZ, hb_blob_destroy)                                                                  \
  X(HARFBUZZ, hb_buffer_add_utf8)                                                               \
  X(HARFBUZZ, hb_buffer_create)                                                                 \
  X(HARFBUZZ, hb_buffer_destroy)                                                                \
  X(HARFBUZZ, hb_buffer_get_glyph_infos)                                                        \
  X(HARFBUZZ, hb_buffer_get_glyph_positions)                                                    \
  X(HARFBUZZ, hb_buffer_guess_segment_properties)                                               \
  X(HARFBUZZ, hb_buffer_set_direction)                                                          \
  X(HARFBUZZ, hb_face_create)                                                                   \
  X(HARFBUZZ, hb_face_destroy)                                                                  \
  X(HARFBUZZ, hb_font_create)                                                                   \
  X(HARFBUZZ, hb_font_destroy)                                                                  \
  X(HARFBUZZ, hb_font_get_glyph_extents)                                                        \
  X(HARFBUZZ, hb_font_get_nominal_glyph)                                                        \
  X(HARFBUZZ, hb_font_set_scale)                                                                \
  X(HARFBUZZ, hb_font_set_variations)                                                           \
  X(HARFBUZZ, hb_shape)                                                                         \
  X(HEIF, heif_context_alloc)                                                                   \
  X(HEIF, heif_context_free)                                                                    \
  X(HEIF, heif_context_get_primary_image_handle)                                                \
  X(HEIF, heif_context_read_from_memory_without_copy)                                           \
  X(HEIF, heif_decode_image)                                                                    \
  X(HEIF, heif_decoding_options_alloc)                                                          \
  X(HEIF, heif_decoding_options_free)                                                           \
  X(HEIF, heif_image_get_bits_per_pixel_range)                                                  \
  X(HEIF, heif_image_get_decoding_warnings)                                                     \
  X(HEIF, heif_image_get_height)                                                                \
  X(HEIF, heif_image_get_plane_readonly)                                                        \
  X(HEIF, heif_image_get_width)                                                                 \
  X(HEIF, heif_image_handle_get_color_profile_type)                                             \
  X(HEIF, heif_image_handle_get_height)                                                         \
  X(HEIF, heif_image_handle_get_luma_bits_per_pixel)                                            \
  X(HEIF, heif_image_handle_get_raw_color_profile)                                              \
  X(HEIF, heif_image_handle_get_raw_color_profile_size)                                         \
  X(HEIF, heif_image_handle_get_width)                                                          \
  X(HEIF, heif_image_handle_release)                                                            \
  X(HEIF, heif_image_release)                                                                   \
  X(WEBP, WebPConfigInitInternal)                                                               \
  X(WEBP, WebPConfigLosslessPreset)                                                             \
  X(WEBP, WebPDecode)                                                                           \
  X(WEBP, WebPEncode)                                                                           \
  X(WEBP, WebPFree)                                                                             \
  X(WEBP, WebPFreeDecBuffer)                                                                    \
  X(WEBP, WebPGetFeaturesInternal)                                                              \
  X(WEBP, WebPInitDecoderConfigInternal)                                                        \
  X(WEBP, WebPMemoryWrite)                                                                      \
  X(WEBP, WebPMemoryWriterClear)                                                                \
  X(WEBP, WebPMemoryWriterInit)                                                                 \
  X(WEBP, WebPPictureAlloc)                                                                     \
  X(WEBP, WebPPictureFree)                                                                      \
  X(WEBP, WebPPictureInitInternal)                                                              \
  X(WEBP, WebPValidateConfig)                                                                   \
  X(WEBPDEMUX, WebPAnimDecoderDelete)                                                           \
  X(WEBPDEMUX, WebPAnimDecoderGetInfo)                                                          \
  X(WEBPDEMUX, WebPAnimDecoderGetNext)                                                          \
  X(WEBPDEMUX, WebPAnimDecoderNewInternal)                                                      \
  X(WEBPDEMUX, WebPAnimDecoderOptionsInitInternal)                                              \
  X(WEBPDEMUX, WebPDemuxDelete)                                                                 \
  X(WEBPDEMUX, WebPDemuxGetChunk)                                                               \
  X(WEBPDEMUX, WebPDemuxInternal)                                                               \
  X(WEBPDEMUX, WebPDemuxReleaseChunkIterator)                                                   \
  X(WEBPMUX, WebPMuxAssemble)                                                                   \
  X(WEBPMUX, WebPMuxDelete)                                                                     \
  X(WEBPMUX, WebPMuxSetChunk)                                                                   \
  X(WEBPMUX, WebPMuxSetImage)                                                                   \
  X(WEBPMUX, WebPNewInternal)                                                                   \
  X(GIF, DGifCloseFile)                                                                         \
  X(GIF, DGifExtensionToGCB)                                                                    \
  X(GIF, DGifGetExtension)                                                                      \
  X(GIF, DGifGetExtensionNext)                                                                  \
  X(GIF, DGifGetImageDesc)                                                                      \
  X(GIF, DGifGetLine)                                                                           \
  X(GIF, DGifGetRecordType)                                                                     \
  X(GIF, DGifOpen)                                                                              \
  X(GIF, GifErrorString)                                                                        \
  X(UNIBREAK, init_linebreak)                                                                   \
  X(UNIBREAK, set_linebreaks_utf32)                                                             \
  X(THAI, th_brk_new)                                                                           \
  X(THAI, th_brk_delete)                                                                        \
  X(THAI, th_brk_wc_find_breaks)                                                                \
  X(FRIBIDI, fribidi_get_bidi_types)                                                            \
  X(FRIBIDI, fribidi_get_bracket_types)                                                         \
  X(FRIBIDI, fribidi_get_par_direction)                                                         \
  X(FRIBIDI, fribidi_get_par_embedding_levels_ex)

/* The trampoline `NAME`, its slot `memesh_slot_NAME` (first holding `memesh_first_NAME`) and
   that first-call stub, which hands the slot's address to memesh_lazy_first in %r11. */
#define MEMESH_TRAMPOLINE(library, name)                                                        \
  __asm__(".text\n"                                                                             \
          ".globl " #name "\n"                                                                  \
          ".hidden " #name "\n"                                                                 \
          ".type " #name ", @function\n" #name ":\n"                                            \
          "  endbr64\n"                                                                         \
          "  jmp *memesh_slot_" #name "(%rip)\n"                                                \
          ".size " #name ", . - " #name "\n"                                                    \
          "memesh_first_" #name ":\n"                                                           \
          "  endbr64\n"                                                                         \
          "  leaq memesh_slot_" #name "(%rip), %r11\n"                                          \
          "  jmp memesh_lazy_first\n"                                                           \
          ".data\n"                                                                             \
          ".balign 8\n"                                                                         \
          ".hidden memesh_slot_" #name "\n"                                                     \
          ".globl memesh_slot_" #name "\n"                                                      \
          "memesh_slot_" #name ":\n"                                                            \
          "  .quad memesh_first_" #name "\n"                                                    \
          ".text\n");
MEMESH_LAZY_FUNCTIONS(MEMESH_TRAMPOLINE)

#define MEMESH_SLOT_DECLARATION(library, name) extern void *memesh_slot_##name;
MEMESH_LAZY_FUNCTIONS(MEMESH_SLOT_DECLARATION)

typedef struct {
  enum memesh_lazy_library library;
  const char *name;
  void **slot;
} lazy_function;

#define MEMESH_LAZY_ENTRY(library, name) {library, #name, &memesh_slot_##name},
static const lazy_function functions[] = {MEMESH_LAZY_FUNCTIONS(MEMESH_LAZY_ENTRY)};

/* A library memesh is built against is missing or broken: nothing sensible can follow. */
static void lazy_fail(const char *what) {
  fprintf(stderr, "error: %s (reinstall it, or run 'make deps')\n", what);
  exit(1);
}

static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;
static int loaded[LIBRARY_COUNT];

/* Called by memesh_lazy_first with the slot of the function being called: loads its library
   and fills every slot of it, once (a second thread waits for the first); the slot then holds
   the real function. */
__attribute__((used, visibility("hidden"))) void memesh_lazy_resolve(void **slot) {
  size_t count = sizeof functions / sizeof functions[0];
  size_t called = 0;
  while (called < count && functions[called].slot != slot) called++;
  if (called == count) lazy_fail("an unknown library function was called");
  enum memesh_lazy_library library = functions[called].library;
  pthread_mutex_lock(&loading);
  if (!loaded[library]) {
    void *handle = dlopen(library_names[library], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) lazy_fail(dlerror());
    for (size_t i = 0; i < count; i++) {
      if (functions[i].library != library) continue;
      void *address = dlsym(handle, functions[i].name);
      if (address == NULL) lazy_fail(dlerror());
      __atomic_store_n(functions[i].slot, address, __ATOMIC_RELEASE);
    }
    loaded[library] = 1;
  }
  pthread_mutex_unlock(&loading);
}

/* Entered by a first-call stub (the slot in %r11, the caller's arguments in their registers,
   the stack as at the trampoline's entry): keeps the six integer and eight vector argument
   registers and %rax (the vector count of a variadic call) across memesh_lazy_resolve, then
   jumps to the function the slot now holds. The stack stays 16-byte aligned at the call. */
__asm__(".text\n"
        ".hidden memesh_lazy_first\n"
        ".globl memesh_lazy_first\n"
        ".type memesh_lazy_first, @function\n"
        "memesh_lazy_first:\n"
        "  pushq %r11\n"
        "  pushq %rdi\n"
        "  pushq %rsi\n"
        "  pushq %rdx\n"
        "  pushq %rcx\n"
        "  pushq %r8\n"
        "  pushq %r9\n"
        "  pushq %rax\n"
        "  subq $136, %rsp\n"
        "  movdqu %xmm0, 0(%rsp)\n"
        "  movdqu %xmm1, 16(%rsp)\n"
        "  movdqu %xmm2, 32(%rsp)\n"
        "  movdqu %xmm3, 48(%rsp)\n"
        "  movdqu %xmm4, 64(%rsp)\n"
        "  movdqu %xmm5, 80(%rsp)\n"
        "  movdqu %xmm6, 96(%rsp)\n"
        "  movdqu %xmm7, 112(%rsp)\n"
        "  movq %r11, %rdi\n"
        "  call memesh_lazy_resolve\n"
        "  movdqu 0(%rsp), %xmm0\n"
        "  movdqu 16(%rsp), %xmm1\n"
        "  movdqu 32(%rsp), %xmm2\n"
        "  movdqu 48(%rsp), %xmm3\n"
        "  movdqu 64(%rsp), %xmm4\n"
        "  movdqu 80(%rsp), %xmm5\n"
        "  movdqu 96(%rsp), %xmm6\n"
        "  movdqu 112(%rsp), %xmm7\n"
        "  addq $136, %rsp\n"
        "  popq %rax\n"
        "  popq %r9\n"
        "  popq %r8\n"
        "  popq %rcx\n"
        "  popq %rdx\n"
        "  popq %rsi\n"
        "  popq %rdi\n"
        "  popq %r11\n"
        "  jmp *(%r11)\n"
        ".size memesh_lazy_first, . - memesh_lazy_first\n");

#endif
