#!/usr/bin/env python3
"""Makes the WebP and GIF fixtures in Tests/MemeMediaTests/Fixtures/images/ from the project's
own pictures (transcripts/images/), with Debian's encoders: cwebp, webpmux and img2webp (webp),
ImageMagick's convert, and giflib's gifbuild. Run once; the results are committed, the tests
never run this.

Each fixture comes with the reference decoder's pixels beside it as NAME.ref.png: dwebp (the
libwebp tools) for WebP, ImageMagick for GIF. The tests compare memesh's decode with those.

    webp-lossy.webp         cwebp -q 80 of photo.jpg
    webp-lossless.webp      cwebp -lossless of cat.png
    webp-alpha.webp         cwebp -q 90 of clear.png (half transparent): lossy colour, alpha
    webp-exif-6.webp        webp-lossless.webp with an EXIF chunk saying orientation 6
    webp-icc.webp           webp-lossy.webp with icc-rgb.jpg's colour profile (ICCP chunk)
    webp-animated.webp      img2webp of cat.png then square.png (the first frame is cat.png)
    gif-transparent.gif     convert of clear.png: one transparent palette index
    gif-local-palette.gif   cat.png in 16 colours, rebuilt with gifbuild: the image's own
                            (local) colour table, a global table of decoys, interlaced, and
                            placed at (8, 4) on a larger screen
    gif-animated.gif        convert of square.png then cat.png (the first frame is square.png)
    gif-icc.gif             convert of icc-rgb.jpg: its colour profile in an ICCRGBG1012
                            application extension
    bomb-webp-header.webp   a lossless WebP whose header claims 16383×16383 (268 megapixels)
    bomb-gif-screen.gif     a 1×1 image on a 65535×65535 screen
    bomb-gif-frame.gif      a 65535×65535 image on a 1×1 screen

For transcripts/formats.t it also writes transcripts/images/photo.webp (cwebp -q 80 of
photo.jpg) and transcripts/images/cat.gif (convert of cat.png).

The WebP and GIF files (not the bombs) are also the seeds of the `webp` and `gif` fuzz targets
(Tests/Fuzz/corpus/webp, Tests/Fuzz/corpus/gif).

Usage: scripts/make-webp-gif-fixtures.py
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PICTURES = os.path.join(ROOT, "transcripts", "images")
OUT = os.path.join(ROOT, "Tests", "MemeMediaTests", "Fixtures", "images")
CORPUS = os.path.join(ROOT, "Tests", "Fuzz", "corpus")


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def picture(name):
    return os.path.join(PICTURES, name)


def out(name):
    return os.path.join(OUT, name)


def dwebp_reference(name):
    run("dwebp", out(name), "-o", out(name + ".ref.png"))


def magick_reference(name):
    # The first frame on its screen, as RGBA.
    run("convert", out(name) + "[0]", "-background", "none", "-coalesce", "-flatten", "-strip",
        "-define", "png:exclude-chunks=date,time", "PNG32:" + out(name + ".ref.png"))


def exif_orientation(value):
    """A little-endian TIFF structure with one IFD entry: Orientation (SHORT) = value."""
    entry = struct.pack("<HHIHH", 0x0112, 3, 1, value, 0)
    return b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + entry + b"\x00\x00\x00\x00"


def webp_files(scratch):
    run("cwebp", "-quiet", "-q", "80", picture("photo.jpg"), "-o", out("webp-lossy.webp"))
    dwebp_reference("webp-lossy.webp")
    run("cwebp", "-quiet", "-lossless", picture("cat.png"), "-o", out("webp-lossless.webp"))
    dwebp_reference("webp-lossless.webp")
    run("cwebp", "-quiet", "-q", "90", "-exact", picture("clear.png"), "-o",
        out("webp-alpha.webp"))
    dwebp_reference("webp-alpha.webp")

    exif = os.path.join(scratch, "exif-6.tiff")
    with open(exif, "wb") as file:
        file.write(exif_orientation(6))
    run("webpmux", "-set", "exif", exif, out("webp-lossless.webp"), "-o",
        out("webp-exif-6.webp"))

    icc = os.path.join(scratch, "profile.icc")
    run("convert", out("icc-rgb.jpg"), icc)
    run("webpmux", "-set", "icc", icc, out("webp-lossy.webp"), "-o", out("webp-icc.webp"))

    # Both frames the same size, so the first frame is the whole canvas: dwebp of frame 1 is
    # what a viewer shows first.
    square = os.path.join(scratch, "square-160x120.png")
    run("convert", picture("square.png"), "-resize", "160x120!", square)
    run("img2webp", "-lossless", "-d", "100", picture("cat.png"), square, "-o",
        out("webp-animated.webp"))
    frame = os.path.join(scratch, "frame-1.webp")
    run("webpmux", "-get", "frame", "1", out("webp-animated.webp"), "-o", frame)
    run("dwebp", frame, "-o", out("webp-animated.webp.ref.png"))

    # The lossless cat with its VP8L header saying 16383×16383 (the largest WebP, 268 MP): what
    # a decoder learns before any pixel.
    with open(out("webp-lossless.webp"), "rb") as file:
        bomb = bytearray(file.read())
    assert bomb[12:16] == b"VP8L" and bomb[20] == 0x2F
    bits = int.from_bytes(bomb[21:25], "little")
    bits = (bits & ~((1 << 28) - 1)) | (16382 << 14) | 16382
    bomb[21:25] = bits.to_bytes(4, "little")
    with open(out("bomb-webp-header.webp"), "wb") as file:
        file.write(bomb)


def gif_files(scratch):
    run("convert", picture("clear.png"), out("gif-transparent.gif"))
    magick_reference("gif-transparent.gif")

    plain = os.path.join(scratch, "cat-16.gif")
    run("convert", picture("cat.png"), "-colors", "16", "+dither", plain)
    dump = subprocess.run(["gifbuild", "-d", plain], check=True, capture_output=True,
                          text=True).stdout
    screen_map = re.search(r"screen map\n(.*?)end\n", dump, re.S)
    image = dump.index("image # 1")
    colours = len(re.findall(r"\brgb ", screen_map.group(1)))
    # Decoys in the global table: a decoder reading it instead of the image's own would draw
    # the cat in shades of magenta.
    decoys = "".join(f"\trgb 255 000 {index * 15:03d} is {index}\n" for index in range(colours))
    dump = (dump[:screen_map.start()] + "screen map\n\tsort flag off\n" + decoys + "end\n"
            + dump[screen_map.end():image])
    rest = subprocess.run(["gifbuild", "-d", plain], check=True, capture_output=True,
                          text=True).stdout
    rest = rest[rest.index("image # 1"):]
    rest = rest.replace("image left 0\nimage top 0\n",
                        "image left 8\nimage top 4\nimage interlaced\nimage map\n"
                        + screen_map.group(1) + "end\n")
    dump = dump.replace("screen width 160", "screen width 180").replace(
        "screen height 120", "screen height 130")
    text = os.path.join(scratch, "local.txt")
    with open(text, "w") as file:
        file.write(dump + rest)
    with open(text) as source, open(out("gif-local-palette.gif"), "wb") as target:
        subprocess.run(["gifbuild"], stdin=source, stdout=target, check=True)
    magick_reference("gif-local-palette.gif")

    run("convert", "-delay", "50", picture("square.png"), picture("cat.png"),
        out("gif-animated.gif"))
    magick_reference("gif-animated.gif")
    run("convert", out("icc-rgb.jpg"), "-resize", "40x30", out("gif-icc.gif"))

    def gif(screen, frame):
        header = b"GIF89a" + struct.pack("<HHBBB", screen[0], screen[1], 0x80, 0, 0)
        palette = bytes([0, 0, 0, 255, 255, 255])
        descriptor = b"," + struct.pack("<HHHHB", 0, 0, frame[0], frame[1], 0)
        # LZW minimum code size 2: clear, one index 0, end.
        data = bytes([2, 2, 0x44, 0x01, 0])
        return header + palette + descriptor + data + b";"

    with open(out("bomb-gif-screen.gif"), "wb") as file:
        file.write(gif((65535, 65535), (1, 1)))
    with open(out("bomb-gif-frame.gif"), "wb") as file:
        file.write(gif((1, 1), (65535, 65535)))


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        webp_files(scratch)
        gif_files(scratch)
    # Every picture must be readable by its own tools before it is committed.
    for name in ["webp-lossy.webp", "webp-lossless.webp", "webp-alpha.webp", "webp-exif-6.webp",
                 "webp-icc.webp", "webp-animated.webp"]:
        run("webpinfo", "-quiet", out(name))
    for name in ["gif-transparent.gif", "gif-local-palette.gif", "gif-animated.gif",
                 "gif-icc.gif"]:
        run("identify", out(name))
    run("cwebp", "-quiet", "-q", "80", picture("photo.jpg"), "-o", picture("photo.webp"))
    run("convert", picture("cat.png"), picture("cat.gif"))
    for target, extension in [("webp", ".webp"), ("gif", ".gif")]:
        seeds = os.path.join(CORPUS, target)
        os.makedirs(seeds, exist_ok=True)
        for name in sorted(os.listdir(OUT)):
            if name.endswith(extension) and not name.startswith("bomb-"):
                shutil.copyfile(out(name), os.path.join(seeds, name))
    print("wrote the WebP and GIF fixtures to", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    sys.exit(main())
