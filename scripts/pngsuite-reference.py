#!/usr/bin/env python3
"""Writes the PngSuite reference pixels that ImagePngSuiteTests compares memesh's decoder with.

Independent of libpng: pypng (pure Python) parses the file and undoes filtering and Adam7; this
script then does the conversion to 8-bit RGBA itself, the way a correct decoder does it when it
ignores colour management:

  * palette → RGB, alpha from tRNS (entries past the tRNS list are opaque);
  * grey 1/2/4 bits → 8 bits by bit replication (×255, ×85, ×17);
  * grey/RGB with a tRNS key: alpha 0 where the raw sample equals the key (compared before any
    depth change), else 255;
  * 16 bits → 8 bits rounded: round(v × 255 / 65535), which is what libpng's png_set_scale_16
    produces (not v >> 8, which png_set_strip_16 gives);
  * gAMA, cHRM, sRGB, iCCP, sBIT and bKGD are ignored. pypng's own asRGBA8() applies sBIT (it
    shifts to the significant bits and rescales), which differs from a decoder that keeps the
    stored samples, so its raw `read()` is used instead.

Output (one line per `decode` file of MANIFEST.tsv): file, width, height, SHA-256 of the RGBA8
bytes (rows top to bottom, no padding).

Usage: python3 scripts/pngsuite-reference.py [SUITE_DIR] > SUITE_DIR/reference.tsv
Needs: pip install pypng
"""

import hashlib
import os
import sys

import png


def rgba8(path):
    reader = png.Reader(filename=path)
    width, height, rows, info = reader.read()
    depth = info["bitdepth"]
    planes = info["planes"]
    # A PLTE in a truecolour file is only a suggestion for display on palette screens.
    palette = info.get("palette") if not info["greyscale"] and planes == 1 else None
    key = info.get("transparent")
    maximum = (1 << depth) - 1

    def to8(value):
        if depth == 16:
            return (value * 255 + 32767) // 65535
        return value * 255 // maximum  # exact for 1, 2, 4, 8 bits (bit replication)

    out = bytearray()
    for row in rows:
        row = list(row)
        for x in range(width):
            if palette is not None:
                entry = palette[row[x]]
                red, green, blue = entry[0], entry[1], entry[2]
                alpha = entry[3] if len(entry) == 4 else 255
                out += bytes((red, green, blue, alpha))
                continue
            samples = row[x * planes:(x + 1) * planes]
            if planes in (1, 2):
                grey = samples[0]
                alpha = to8(samples[1]) if planes == 2 else 255
                if planes == 1 and key is not None and grey == (key if isinstance(key, int) else key[0]):
                    alpha = 0
                value = to8(grey)
                out += bytes((value, value, value, alpha))
            else:
                colour = samples[:3]
                alpha = to8(samples[3]) if planes == 4 else 255
                if planes == 3 and key is not None and tuple(colour) == tuple(key):
                    alpha = 0
                out += bytes((to8(colour[0]), to8(colour[1]), to8(colour[2]), alpha))
    return width, height, bytes(out)


def main():
    suite = sys.argv[1] if len(sys.argv) > 1 else "Tests/MemeMediaTests/Fixtures/pngsuite"
    print("# file\twidth\theight\tsha256 of RGBA8 (made by scripts/pngsuite-reference.py, pypng %s)"
          % png.__version__)
    with open(os.path.join(suite, "MANIFEST.tsv")) as manifest:
        for line in manifest:
            fields = line.rstrip("\n").split("\t")
            if line.startswith("#") or fields[0] == "file" or fields[1] != "decode":
                continue
            width, height, pixels = rgba8(os.path.join(suite, fields[0]))
            assert len(pixels) == width * height * 4
            assert (str(width), str(height)) == (fields[2], fields[3]), fields[0]
            print("%s\t%d\t%d\t%s" % (fields[0], width, height, hashlib.sha256(pixels).hexdigest()))


if __name__ == "__main__":
    main()
