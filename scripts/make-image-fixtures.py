#!/usr/bin/env python3
"""Makes the small JPEG/PNG fixtures in Tests/MemeMediaTests/Fixtures/images/ (run once; the
results are committed, the tests never run this).

Needs Pillow (pip install pillow) and a C compiler with libjpeg (libjpeg62-turbo-dev): Pillow
cannot write 4:1:1 subsampling, YCCK or CMYK without the Adobe marker, so a small C helper
(below) writes those through libjpeg directly.

Every picture is a 4-colour quadrant pattern (red, green, blue, yellow from the top left,
clockwise red→green→yellow→blue), so a wrong rotation, mirror or colour conversion is visible.
Each fixture is checked here with Pillow (an independent decoder) before it is written.

Usage: python3 scripts/make-image-fixtures.py [OUTPUT_DIR]
"""

import io
import os
import struct
import subprocess
import sys
import tempfile
import zlib

from PIL import Image, ImageOps

RED, GREEN, BLUE, YELLOW = (220, 30, 30), (30, 200, 60), (40, 60, 220), (240, 220, 40)
# The same colours as CMYK ink (0 = no ink); K-free so every CMYK→RGB formula agrees.
INK = {RED: (35, 225, 225, 0), GREEN: (225, 55, 195, 0), BLUE: (215, 195, 35, 0),
       YELLOW: (15, 35, 215, 0)}

HELPER_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
/* usage: helper MODE WIDTH HEIGHT RAW OUT
   MODE 411: RGB input, YCbCr 4:1:1.  ycck: CMYK input (Adobe-inverted), stored as YCCK.
   cmyk-plain: CMYK input (plain ink), stored as CMYK without the Adobe marker.
   scans: RGB input, progressive with a valid script of 2112 scans (each coefficient of each
   component alone, sent in 11 successive-approximation steps). */
int main(int argc, char **argv) {
  if (argc != 6) return 2;
  const char *mode = argv[1];
  int width = atoi(argv[2]), height = atoi(argv[3]);
  int many_scans = strcmp(mode, "scans") == 0;
  int rgb = strcmp(mode, "411") == 0 || many_scans, components = rgb ? 3 : 4;
  static jpeg_scan_info script[3 * 64 * 11];
  FILE *in = fopen(argv[4], "rb"), *out = fopen(argv[5], "wb");
  if (!in || !out) return 3;
  unsigned char *pixels = malloc((size_t)width * height * components);
  if (fread(pixels, 1, (size_t)width * height * components, in) !=
      (size_t)width * height * components) return 4;
  struct jpeg_compress_struct jpeg;
  struct jpeg_error_mgr error;
  jpeg.err = jpeg_std_error(&error);
  jpeg_create_compress(&jpeg);
  jpeg_stdio_dest(&jpeg, out);
  jpeg.image_width = width;
  jpeg.image_height = height;
  jpeg.input_components = components;
  jpeg.in_color_space = rgb ? JCS_RGB : JCS_CMYK;
  jpeg_set_defaults(&jpeg);
  jpeg_set_quality(&jpeg, 95, TRUE);
  if (many_scans) {
    int count = 0;
    for (int component = 0; component < 3; component++) {
      for (int coefficient = 0; coefficient < 64; coefficient++) {
        for (int low = 10; low >= 0; low--) {
          jpeg_scan_info *scan = &script[count++];
          scan->comps_in_scan = 1;
          scan->component_index[0] = component;
          scan->Ss = scan->Se = coefficient;
          scan->Ah = low == 10 ? 0 : low + 1;
          scan->Al = low;
        }
      }
    }
    jpeg.scan_info = script;
    jpeg.num_scans = count;
  } else if (rgb) {
    jpeg.comp_info[0].h_samp_factor = 4;
    jpeg.comp_info[0].v_samp_factor = 1;
    jpeg.comp_info[1].h_samp_factor = jpeg.comp_info[2].h_samp_factor = 1;
    jpeg.comp_info[1].v_samp_factor = jpeg.comp_info[2].v_samp_factor = 1;
  } else if (strcmp(mode, "ycck") == 0) {
    jpeg_set_colorspace(&jpeg, JCS_YCCK);
  } else {
    jpeg_set_colorspace(&jpeg, JCS_CMYK);
    jpeg.write_Adobe_marker = FALSE;
  }
  jpeg_start_compress(&jpeg, TRUE);
  while (jpeg.next_scanline < jpeg.image_height) {
    JSAMPROW row = pixels + (size_t)jpeg.next_scanline * width * components;
    jpeg_write_scanlines(&jpeg, &row, 1);
  }
  jpeg_finish_compress(&jpeg);
  jpeg_destroy_compress(&jpeg);
  fclose(out);
  return 0;
}
"""


def quadrants(width, height, colours=(RED, GREEN, BLUE, YELLOW), mode="RGB"):
    """Top-left, top-right, bottom-left, bottom-right."""
    image = Image.new(mode, (width, height))
    half_x, half_y = width // 2, height // 2
    for y in range(height):
        for x in range(width):
            index = (1 if x >= half_x else 0) + (2 if y >= half_y else 0)
            image.putpixel((x, y), colours[index])
    return image


def centres(width, height):
    """Middle of each quadrant."""
    return [(width // 4, height // 4), (width * 3 // 4, height // 4),
            (width // 4, height * 3 // 4), (width * 3 // 4, height * 3 // 4)]


def close(a, b, tolerance=40):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def check_quadrants(data, width, height, transpose=False):
    """Decodes with Pillow (applying EXIF orientation when asked) and checks the colours."""
    image = Image.open(io.BytesIO(data))
    if transpose:
        image = ImageOps.exif_transpose(image)
    image = image.convert("RGB")
    assert image.size == (width, height), image.size
    for point, colour in zip(centres(width, height), (RED, GREEN, BLUE, YELLOW)):
        assert close(image.getpixel(point), colour), (point, image.getpixel(point), colour)


def jpeg(image, **options):
    out = io.BytesIO()
    image.save(out, "JPEG", **options)
    return out.getvalue()


def splice_app1(data, payload):
    """Inserts an APP1 segment right after SOI."""
    assert data[:2] == b"\xff\xd8"
    return data[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + data[2:]


def tiff(entries, big_endian=False, ifd_offset=8, count=None):
    """A minimal TIFF structure for an EXIF APP1: one IFD with (tag, type, count, value) entries."""
    order = ">" if big_endian else "<"
    head = (b"MM" if big_endian else b"II") + struct.pack(order + "HI", 42, ifd_offset)
    body = struct.pack(order + "H", len(entries) if count is None else count)
    for tag, kind, number, value in entries:
        if kind == 3:
            body += struct.pack(order + "HHIHH", tag, kind, number, value, 0)
        else:
            body += struct.pack(order + "HHII", tag, kind, number, value)
    body += struct.pack(order + "I", 0)
    return head + b"\0" * max(0, ifd_offset - 8) + body


def exif(entries, **options):
    return b"Exif\0\0" + tiff(entries, **options)


# The stored pixels for orientation N: applying N (as a viewer does) gives the upright image.
STORE_FOR_ORIENTATION = {
    1: None, 2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90, 7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_270,
}


def png_chunk(kind, payload):
    return (struct.pack(">I", len(payload)) + kind + payload
            + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF))


def png(width, height, chunks_before_idat=(), rows=None, colour_type=2):
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    if rows is None:  # grey rows; a bomb's first row only (it is refused before the data)
        count = height if width * height <= 1 << 20 else 1
        rows = b"".join(b"\0" + b"\x80" * (width * 3) for _ in range(count))
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + b"".join(png_chunk(kind, payload) for kind, payload in chunks_before_idat)
            + png_chunk(b"IDAT", zlib.compress(rows, 9)) + png_chunk(b"IEND", b""))


def jpeg_segments(data):
    """(marker, start, end) of each segment up to and including the entropy data after SOS."""
    segments, index = [], 2
    while index < len(data):
        assert data[index] == 0xFF
        marker = data[index + 1]
        if marker == 0xD9:
            segments.append((marker, index, index + 2))
            break
        length = struct.unpack(">H", data[index + 2:index + 4])[0]
        end = index + 2 + length
        if marker == 0xDA:  # entropy-coded data runs to the next marker that is not RST/stuffing
            while not (data[end] == 0xFF and data[end + 1] not in (0x00, *range(0xD0, 0xD8))):
                end += 1
        segments.append((marker, index, end))
        index = end
    return segments


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "Tests/MemeMediaTests/Fixtures/images"
    os.makedirs(out_dir, exist_ok=True)
    written = []

    def write(name, data):
        with open(os.path.join(out_dir, name), "wb") as handle:
            handle.write(data)
        written.append((name, len(data)))

    work = tempfile.mkdtemp()
    helper = os.path.join(work, "helper")
    with open(helper + ".c", "w") as source:
        source.write(HELPER_C)
    subprocess.run(["cc", "-O1", "-o", helper, helper + ".c", "-ljpeg"], check=True)

    def via_helper(mode, image, raw_bytes):
        raw = os.path.join(work, "raw")
        target = os.path.join(work, "out.jpg")
        with open(raw, "wb") as handle:
            handle.write(raw_bytes)
        subprocess.run([helper, mode, str(image.width), str(image.height), raw, target], check=True)
        with open(target, "rb") as handle:
            return handle.read()

    # MARK: JPEG variants (32×24 unless the name says otherwise)
    base = quadrants(32, 24)
    write("baseline.jpg", jpeg(base, quality=95, subsampling="4:4:4"))
    write("progressive.jpg", jpeg(base, quality=95, subsampling="4:4:4", progressive=True))
    write("restart.jpg", jpeg(base, quality=95, subsampling="4:2:0", restart_marker_blocks=1))
    grey = quadrants(32, 24, colours=(40, 110, 170, 230), mode="L")
    write("grayscale.jpg", jpeg(grey, quality=95))
    for name in ("baseline.jpg", "progressive.jpg", "restart.jpg"):
        check_quadrants(open(os.path.join(out_dir, name), "rb").read(), 32, 24)
    assert b"\xff\xd0" in open(os.path.join(out_dir, "restart.jpg"), "rb").read()

    # CMYK as Photoshop writes it (Adobe marker, inverted), YCCK, and plain CMYK without Adobe.
    cmyk = quadrants(32, 24, colours=[INK[c] for c in (RED, GREEN, BLUE, YELLOW)], mode="CMYK")
    write("cmyk-adobe.jpg", jpeg(cmyk, quality=95))  # Pillow stores CMYK inverted + APP14
    inverted = bytes(255 - value for value in cmyk.tobytes())
    write("ycck-adobe.jpg", via_helper("ycck", cmyk, inverted))
    write("cmyk-plain.jpg", via_helper("cmyk-plain", cmyk, cmyk.tobytes()))
    for name in ("cmyk-adobe.jpg", "ycck-adobe.jpg"):
        data = open(os.path.join(out_dir, name), "rb").read()
        assert b"Adobe" in data
        check_quadrants(data, 32, 24)
    assert b"Adobe" not in open(os.path.join(out_dir, "cmyk-plain.jpg"), "rb").read()

    # Every chroma subsampling, at odd sizes too.
    for width, height in ((32, 24), (33, 17), (7, 5), (1, 1), (17, 1), (1, 9)):
        image = quadrants(width, height) if width >= 2 and height >= 2 else Image.new(
            "RGB", (width, height), RED)
        for sampling in ("4:4:4", "4:2:2", "4:2:0"):
            name = "sub%s-%dx%d.jpg" % (sampling.replace(":", ""), width, height)
            write(name, jpeg(image, quality=95, subsampling=sampling))
        write("sub411-%dx%d.jpg" % (width, height), via_helper("411", image, image.tobytes()))
    check_quadrants(open(os.path.join(out_dir, "sub411-32x24.jpg"), "rb").read(), 32, 24)

    # A truncated file: a 64×64 baseline cut in the middle of its entropy-coded data.
    big = quadrants(64, 64)
    for y in range(64):
        for x in range(64):
            if (x * 7 + y * 13) % 5 == 0:
                big.putpixel((x, y), (x * 4, y * 4, 128))
    whole = jpeg(big, quality=95, subsampling="4:4:4")
    scan_start = [s for s in jpeg_segments(whole) if s[0] == 0xDA][0][1]
    write("truncated.jpg", whole[: (scan_start + len(whole)) // 2])

    # MARK: EXIF orientation: upright is 24×16 for every N.
    upright = quadrants(24, 16)
    for orientation, method in STORE_FOR_ORIENTATION.items():
        stored = upright if method is None else upright.transpose(method)
        data = splice_app1(jpeg(stored, quality=95, subsampling="4:4:4"),
                           exif([(0x0112, 3, 1, orientation)]))
        check_quadrants(data, 24, 16, transpose=True)
        write("exif-%d.jpg" % orientation, data)
    stored6 = jpeg(upright.transpose(Image.Transpose.ROTATE_90), quality=95, subsampling="4:4:4")
    big_endian = splice_app1(stored6, exif([(0x0112, 3, 1, 6)], big_endian=True))
    check_quadrants(big_endian, 24, 16, transpose=True)
    write("exif-6-bigendian.jpg", big_endian)
    # Malformed EXIF on upright pixels: each must act as orientation 1.
    plain = jpeg(upright, quality=95, subsampling="4:4:4")
    write("exif-bad-9.jpg", splice_app1(plain, exif([(0x0112, 3, 1, 9)])))
    write("exif-bad-0.jpg", splice_app1(plain, exif([(0x0112, 3, 1, 0)])))
    write("exif-bad-type.jpg", splice_app1(plain, exif([(0x0112, 4, 1, 6)])))
    write("exif-bad-count.jpg", splice_app1(plain, exif([(0x0112, 3, 2, 6)])))
    write("exif-bad-offset.jpg", splice_app1(plain, 
        b"Exif\0\0II*\0\xf0\xff\xff\x7f" + tiff([(0x0112, 3, 1, 6)])[8:]))
    write("exif-bad-entries.jpg", splice_app1(plain, exif([(0x0112, 3, 1, 6)], count=0xFFFF)[:-6]))
    write("exif-bad-header.jpg", splice_app1(plain, b"Exif\0\0XX*\0\x08\0\0\0"))
    write("exif-truncated.jpg", splice_app1(plain, b"Exif\0\0II*\0"))
    # An XMP APP1 first, then the EXIF one (orientation 6): the EXIF one counts.
    xmp = b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>"
    write("exif-after-xmp.jpg", splice_app1(splice_app1(stored6, exif([(0x0112, 3, 1, 6)])), xmp))

    # MARK: Bombs
    # A PNG whose IHDR claims 100000×100000 (40 GB of RGBA).
    write("bomb-100000x100000.png", png(100000, 100000))
    # A JPEG with thousands of valid scans (2112: the most a script can have for 3 components).
    many = via_helper("scans", quadrants(16, 16), quadrants(16, 16).tobytes())
    assert many.count(b"\xff\xda") == 2112
    check_quadrants(many, 16, 16)
    write("bomb-2112-scans.jpg", many)
    # A JPEG with thousands of bogus scans: a 512×512 progressive picture whose last AC scan is
    # repeated 3000 times (libjpeg only warns about the inconsistent progression and goes on).
    progressive = jpeg(quadrants(512, 512), quality=50, progressive=True)
    segments = jpeg_segments(progressive)
    last_scan = [s for s in segments if s[0] == 0xDA][-1]
    scan = progressive[last_scan[1]:last_scan[2]]
    end = segments[-1]
    write("bomb-3000-scans.jpg", progressive[:last_scan[2]] + scan * 3000 + progressive[end[1]:])
    # Text chunks that inflate to 64 MB (the limit is the same for gigabytes; kept small in git).
    zeros = zlib.compress(b"\0" * (64 << 20), 9)
    write("bomb-ztxt.png", png(8, 8, [(b"zTXt", b"Comment\0\0" + zeros)]))
    write("bomb-itxt.png", png(8, 8, [(b"iTXt", b"memesh:recipe\0\1\0\0\0" + zeros)]))

    # MARK: PNG eXIf orientation: applied when the chunk comes before the image data, ignored
    # after it (as browsers do: the W3C PNG specification and its web-platform tests).
    def png_of(image, before=(), after=()):
        rows = b"".join(b"\0" + image.crop((0, y, image.width, y + 1)).tobytes()
                        for y in range(image.height))
        header = struct.pack(">IIBBBBB", image.width, image.height, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
                + b"".join(png_chunk(kind, payload) for kind, payload in before)
                + png_chunk(b"IDAT", zlib.compress(rows, 9))
                + b"".join(png_chunk(kind, payload) for kind, payload in after)
                + png_chunk(b"IEND", b""))
    stored6_png = upright.transpose(Image.Transpose.ROTATE_90)
    exif6 = tiff([(0x0112, 3, 1, 6)])
    write("png-exif-6.png", png_of(stored6_png, before=[(b"eXIf", exif6)]))
    write("png-exif-6-late.png", png_of(stored6_png, after=[(b"eXIf", exif6)]))

    # MARK: Colour profiles (ICC)
    # An RGB profile (littlecms's sRGB; any RGB profile will do) is carried into the meme; a
    # profile for another colour space, a damaged one or a PNG iCCP bomb is left out.
    from PIL import ImageCms
    rgb_profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    # Without its creation time and its MD5 (an ID of zeros means "not computed"), so running
    # this again gives the same bytes.
    rgb_profile = rgb_profile[:24] + bytes(12) + rgb_profile[36:84] + bytes(16) + rgb_profile[100:]
    assert rgb_profile[16:20] == b"RGB " and rgb_profile[36:40] == b"acsp"
    write("icc-rgb.jpg", jpeg(quadrants(32, 24), quality=90, icc_profile=rgb_profile))
    buffer = io.BytesIO()
    quadrants(32, 24).save(buffer, "PNG", icc_profile=rgb_profile)
    write("icc-rgb.png", buffer.getvalue())
    # Over 64 KB: libjpeg-turbo spreads it over several APP2 markers (declared size patched).
    large = rgb_profile + bytes(100_000)
    large = struct.pack(">I", len(large)) + large[4:]
    large_jpeg = jpeg(quadrants(32, 24), quality=90, icc_profile=large)
    assert large_jpeg.count(b"ICC_PROFILE\0") == 2
    write("icc-large.jpg", large_jpeg)
    cmyk_profile = rgb_profile[:16] + b"CMYK" + rgb_profile[20:]
    write("icc-cmyk.jpg", jpeg(Image.new("CMYK", (32, 24), INK[RED]), quality=90,
                                icc_profile=cmyk_profile))
    bad_size = struct.pack(">I", len(rgb_profile) + 10) + rgb_profile[4:]
    write("icc-bad-size.jpg", jpeg(quadrants(32, 24), quality=90, icc_profile=bad_size))
    write("icc-bomb.png", png(8, 8, [(b"iCCP", b"ICC profile\0\0" + zeros)]))

    # MARK: Other formats (refused by content) and a plain PNG
    buffer = io.BytesIO()
    Image.new("RGBA", (5, 3), (10, 20, 30, 128)).save(buffer, "PNG")
    write("rgba-5x3.png", buffer.getvalue())

    # What Pillow (its own libjpeg-turbo) shows for each decodable JPEG, upright: the size and
    # every pixel as RGBA, compared by ImageJPEGTests with a small tolerance.
    with open(os.path.join(out_dir, "jpeg-reference.tsv"), "w") as table:
        table.write("# file\twidth\theight\tRGBA pixels as hex (Pillow %s, EXIF applied)\n"
                    % Image.__version__)
        for name, _ in written:
            if not name.endswith(".jpg") or name.startswith(("bomb", "truncated")):
                continue
            image = Image.open(os.path.join(out_dir, name))
            image = ImageOps.exif_transpose(image).convert("RGBA")
            table.write("%s\t%d\t%d\t%s\n" % (name, image.width, image.height,
                                               image.tobytes().hex()))

    for name, size in written:
        print("%-28s %7d bytes" % (name, size))


if __name__ == "__main__":
    main()
