#!/usr/bin/env python3
"""Writes the small picture fixtures the transcripts load (transcripts/images/).

Pure Python (zlib only), so a fresh machine can regenerate them: python3 this-script.
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "transcripts", "images")


def png(path, width, height, pixel, alpha=False):
    """Writes an 8-bit RGB or RGBA PNG whose pixel (x, y) is pixel(x, y)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rgba = pixel(x, y)
            rows.extend(rgba if alpha else rgba[:3])

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    color_type = 6 if alpha else 2
    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(bytes(rows), 9))
    data += chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


os.makedirs(OUT, exist_ok=True)
# A 160x120 landscape: sky over grass with a sun, enough for captions to show.
def landscape(x, y):
    if (x - 120) ** 2 + (y - 30) ** 2 < 15 ** 2:
        return (250, 210, 60, 255)
    if y < 80:
        return (90 + y, 150 + y // 2, 230, 255)
    return (60, 140 + (x % 20), 60, 255)


png(os.path.join(OUT, "cat.png"), 160, 120, landscape)
# A 64x64 checkerboard.
png(os.path.join(OUT, "square.png"), 64, 64,
    lambda x, y: (200, 60, 60, 255) if (x // 8 + y // 8) % 2 else (240, 240, 240, 255))
# A 90x60 picture with a transparent half.
png(os.path.join(OUT, "clear.png"), 90, 60,
    lambda x, y: (30, 90, 200, 255) if x < 45 else (0, 0, 0, 0), alpha=True)
# Not a picture at all.
with open(os.path.join(OUT, "notes.txt"), "w") as f:
    f.write("<!DOCTYPE html> not a picture\n")
