#!/usr/bin/env python3
"""Writes the memegen-format template folders the tests import (transcripts/templates/).

Each folder is what memegen keeps per template: config.yml and default.png (and, for styles,
one picture per style). The pictures are drawn here from flat shapes (pure Python, zlib only,
like make-transcript-images.py), so nothing is downloaded and a fresh machine can regenerate
them: python3 scripts/make-template-fixtures.py

The good ones: a Drake-like template (two boxes on the right half), three labels on people (one
turned), four stacked boxes, and one with `styles:`. The hostile ones: bad YAML, an unknown key,
no picture, numbers far out of range, a picture that is a symlink, a style without a picture.
"""
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "transcripts", "templates")


def png(path, width, height, pixel):
    """Writes an 8-bit RGB PNG whose pixel (x, y) is pixel(x, y)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows.extend(pixel(x, y))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n"
    data += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(bytes(rows), 9))
    data += chunk(b"IEND", b"")
    with open(path, "wb") as file:
        file.write(data)


def inside_circle(x, y, cx, cy, r):
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def drake(x, y):
    """Two panels on the left (a figure saying no, then yes), white on the right."""
    if x >= 240:
        return (250, 250, 250)
    top = y < 240
    background = (240, 150, 60) if top else (250, 200, 90)
    cy = 120 if top else 360
    if inside_circle(x, y, 130, cy - 20, 45):
        return (120, 80, 50)
    if 80 <= x <= 180 and cy + 20 <= y <= cy + 110:
        return (200, 40, 40) if top else (40, 160, 60)
    if top and 170 <= x <= 230 and cy - 70 <= y <= cy - 40:
        return (120, 80, 50)
    return background


def distracted(x, y):
    """A street with three people: one on the left, two on the right."""
    if y < 150:
        background = (140, 190, 235)
    elif y < 190:
        background = (90, 140, 80)
    else:
        background = (150, 150, 150)
    for cx, color in ((150, (200, 60, 120)), (380, (60, 90, 200)), (500, (230, 190, 60))):
        if inside_circle(x, y, cx, 170, 28):
            return (230, 190, 160)
        if cx - 35 <= x <= cx + 35 and 200 <= y <= 360:
            return color
    return background


def brain(x, y):
    """Four rows, white on the left for the text, a brighter glow in each row on the right."""
    if x < 200:
        return (255, 255, 255) if y % 150 not in (0, 1) else (0, 0, 0)
    row = y // 150
    glow = 60 + 60 * row
    if inside_circle(x, y, 300, row * 150 + 75, 40 + 8 * row):
        return (min(255, glow + 60), min(255, glow + 40), 255)
    return (20, 20, 40) if y % 150 not in (0, 1) else (0, 0, 0)


def buttons(colors):
    def pixel(x, y):
        background = (180, 200, 210)
        for cx, color in ((150, colors[0]), (330, colors[1])):
            if inside_circle(x, y, cx, 140, 60):
                return color
        if y > 260:
            return (60, 60, 70)
        return background

    return pixel


def small(x, y):
    return (90, 120, 200) if (x // 8 + y // 8) % 2 else (240, 240, 240)


def folder(name, config, pictures=()):
    path = os.path.join(OUT, name)
    os.makedirs(path, exist_ok=True)
    if config is not None:
        with open(os.path.join(path, "config.yml"), "w") as file:
            file.write(config)
    for file_name, width, height, pixel in pictures:
        png(os.path.join(path, file_name), width, height, pixel)
    return path


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    folder("drake", """\
name: Drake-like
source: made by memesh's scripts/make-template-fixtures.py
text:
  - style: none
    color: black
    anchor_x: 0.5
    anchor_y: 0.0
    scale_x: 0.5
    scale_y: 0.5
  - style: none
    color: black
    anchor_x: 0.5
    anchor_y: 0.5
    scale_x: 0.5
    scale_y: 0.5
example:
  - writing captions by hand
  - templates in the terminal
""", [("default.png", 480, 480, drake)])
    folder("three-labels", """\
name: Three Labels
keywords:
  - distracted
text:
  - anchor_x: 0.1
    anchor_y: 0.6
    scale_x: 0.3
    scale_y: 0.15
  - anchor_x: 0.45
    anchor_y: 0.35
    scale_x: 0.3
    scale_y: 0.15
    angle: 10
    color: yellow
  - anchor_x: 0.7
    anchor_y: 0.6
    scale_x: 0.3
    scale_y: 0.15
    align: right
example:
  - new framework
  - me
  - my working code
""", [("default.png", 600, 400, distracted)])
    folder("four-boxes", """\
name: Four Boxes
text:
  - {anchor_x: 0.02, anchor_y: 0.0, scale_x: 0.46, scale_y: 0.25, color: black, style: none, align: left}
  - {anchor_x: 0.02, anchor_y: 0.25, scale_x: 0.46, scale_y: 0.25, color: black, style: none, align: left}
  - {anchor_x: 0.02, anchor_y: 0.5, scale_x: 0.46, scale_y: 0.25, color: black, style: none, align: left}
  - {anchor_x: 0.02, anchor_y: 0.75, scale_x: 0.46, scale_y: 0.25, color: black, style: none, align: left}
example: [print debugging, a debugger, printing from the debugger, reading the code]
""", [("default.png", 400, 600, brain)])
    folder("two-buttons", """\
name: Two Buttons
text:
  - anchor_x: 0.15
    anchor_y: 0.2
    scale_x: 0.3
    scale_y: 0.2
    angle: 12.5
    color: '#202020'
    style: none
  - anchor_x: 0.55
    anchor_y: 0.2
    scale_x: 0.3
    scale_y: 0.2
    color: '#ffffff'
  - anchor_x: 0.0
    anchor_y: 0.8
    scale_x: 1.0
    scale_y: 0.2
styles:
  - blue
sample:
  - tabs
  - spaces
""", [
        ("default.png", 480, 360, buttons([(220, 40, 40), (220, 40, 40)])),
        ("blue.png", 480, 360, buttons([(40, 80, 220), (40, 80, 220)])),
        ("green.png", 480, 360, buttons([(40, 180, 80), (40, 180, 80)])),
    ])
    # Hostile folders: each must be refused in one line, with nothing imported.
    folder("bad-yaml", "name: Bad\ntext:\n  - anchor_x: [0.1\n    anchor_y: 0.2\n",
           [("default.png", 32, 32, small)])
    folder("unknown-key", "name: Unknown Key\ntext:\n  - anchor_x: 0.1\n    colour: red\n",
           [("default.png", 32, 32, small)])
    folder("no-picture", "name: No Picture\ntext:\n  - anchor_x: 0.1\n")
    folder("huge-numbers", "name: Huge\ntext:\n  - anchor_x: 1e308\n    scale_x: 0.5\n",
           [("default.png", 32, 32, small)])
    folder("missing-style", "name: Missing Style\nstyles:\n  - gone\n",
           [("default.png", 32, 32, small)])
    path = folder("symlinked-picture", "name: Symlinked Picture\n")
    os.symlink("../../images/cat.png", os.path.join(path, "default.png"))


if __name__ == "__main__":
    main()
