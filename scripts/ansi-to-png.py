#!/usr/bin/env python3
"""Turn terminal text with SGR colors into a PNG, to look at a memesh preview.

    scripts/ansi-to-png.py IN.ansi OUT.png [--cell 8x16]

IN is what `tmux capture-pane -e -p` (or a program) printed. Each cell becomes a rectangle of
--cell pixels (default 8×16, the 1:2 shape memesh assumes): the background color, then the
glyph in the foreground color. Block elements U+2580–U+259F are drawn as the shapes they name
(half blocks as two colored halves, quadrants, eighths, shades), so the PNG shows what a
terminal with any font would. Other printable characters are drawn with DejaVu Sans Mono when
available. A character common terminal fonts lack (legacy computing symbols U+1FB00–U+1FBFF
such as sextants, private use, anything beyond the Basic Multilingual Plane) is outlined in
magenta and counted: on screen it would be an empty box.

Understands SGR 0, 1, 7, 22, 27, 30–37, 39, 40–47, 49, 90–97, 100–107, 38/48;5;n and
38/48;2;r;g;b; other escape sequences are skipped. Needs Pillow (pip install Pillow).
"""
import argparse
import re
import sys

from PIL import Image, ImageDraw, ImageFont

DEFAULT_FG = (204, 204, 204)
DEFAULT_BG = (0, 0, 0)
MISSING = (255, 0, 255)

# xterm's 16 colors.
ANSI16 = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
    (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
]


def palette256(n):
    if n < 16:
        return ANSI16[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    grey = 8 + (n - 232) * 10
    return (grey, grey, grey)


def parse(text):
    """Yields rows of cells (char, fg, bg) from terminal text."""
    fg, bg, reverse = None, None, False
    rows, row = [], []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            match = re.match(r"\x1b\[([0-9;]*)([@-~])", text[i:])
            if match:
                if match.group(2) == "m":
                    codes = [int(c) if c else 0 for c in match.group(1).split(";")]
                    fg, bg, reverse = apply_sgr(codes, fg, bg, reverse)
                i += match.end()
                continue
            # OSC/APC/DCS until ST or BEL, or a two-character sequence.
            if i + 1 < len(text) and text[i + 1] in "]_P":
                end = re.search(r"\x07|\x1b\\", text[i:])
                i += end.end() if end else len(text) - i
            else:
                i += 2
            continue
        if ch == "\n":
            rows.append(row)
            row = []
        elif ch == "\r":
            pass
        elif ch >= " ":
            f = fg if fg is not None else DEFAULT_FG
            b = bg if bg is not None else DEFAULT_BG
            row.append((ch, b, f) if reverse else (ch, f, b))
        i += 1
    rows.append(row)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def apply_sgr(codes, fg, bg, reverse):
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            fg, bg, reverse = None, None, False
        elif c == 7:
            reverse = True
        elif c == 27:
            reverse = False
        elif 30 <= c <= 37:
            fg = ANSI16[c - 30]
        elif 90 <= c <= 97:
            fg = ANSI16[c - 90 + 8]
        elif 40 <= c <= 47:
            bg = ANSI16[c - 40]
        elif 100 <= c <= 107:
            bg = ANSI16[c - 100 + 8]
        elif c == 39:
            fg = None
        elif c == 49:
            bg = None
        elif c in (38, 48) and i + 1 < len(codes):
            if codes[i + 1] == 5 and i + 2 < len(codes):
                color = palette256(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2 and i + 4 < len(codes):
                color = tuple(codes[i + 2:i + 5])
                i += 4
            else:
                color = None
            if c == 38:
                fg = color
            else:
                bg = color
        i += 1
    return fg, bg, reverse


# Block elements as rectangles in eighths of the cell: (x0, y0, x1, y1).
def block_rects(code):
    if code == 0x2580:
        return [(0, 0, 8, 4)]
    if 0x2581 <= code <= 0x2588:
        n = code - 0x2580
        return [(0, 8 - n, 8, 8)]
    if 0x2589 <= code <= 0x258F:
        n = 8 - (code - 0x2588)
        return [(0, 0, n, 8)]
    if code == 0x2590:
        return [(4, 0, 8, 8)]
    if code == 0x2594:
        return [(0, 0, 8, 1)]
    if code == 0x2595:
        return [(7, 0, 8, 8)]
    ul, ur, ll, lr = (0, 0, 4, 4), (4, 0, 8, 4), (0, 4, 4, 8), (4, 4, 8, 8)
    quadrants = {
        0x2596: [ll], 0x2597: [lr], 0x2598: [ul], 0x2599: [ul, ll, lr], 0x259A: [ul, lr],
        0x259B: [ul, ur, ll], 0x259C: [ul, ur, lr], 0x259D: [ur], 0x259E: [ur, ll],
        0x259F: [ur, ll, lr],
    }
    return quadrants.get(code)


def blend(a, b, t):
    return tuple(round(x * t + y * (1 - t)) for x, y in zip(a, b))


def render(rows, cell_w, cell_h, font):
    width = max((len(r) for r in rows), default=1) or 1
    image = Image.new("RGB", (width * cell_w, max(1, len(rows)) * cell_h), DEFAULT_BG)
    draw = ImageDraw.Draw(image)
    missing = 0
    for y, row in enumerate(rows):
        for x, (ch, fg, bg) in enumerate(row):
            left, top = x * cell_w, y * cell_h
            draw.rectangle([left, top, left + cell_w - 1, top + cell_h - 1], fill=bg)
            code = ord(ch)
            if ch == " ":
                continue
            if 0x2591 <= code <= 0x2593:
                shade = blend(fg, bg, (code - 0x2590) / 4)
                draw.rectangle([left, top, left + cell_w - 1, top + cell_h - 1], fill=shade)
                continue
            rects = block_rects(code)
            if rects is not None:
                for x0, y0, x1, y1 in rects:
                    draw.rectangle(
                        [left + x0 * cell_w // 8, top + y0 * cell_h // 8,
                         left + x1 * cell_w // 8 - 1, top + y1 * cell_h // 8 - 1],
                        fill=fg)
                continue
            if 0x1FB00 <= code <= 0x1FBFF or 0xE000 <= code <= 0xF8FF or code > 0xFFFF:
                missing += 1
                draw.rectangle([left, top, left + cell_w - 1, top + cell_h - 1], outline=MISSING)
            if font is not None:
                draw.text((left, top), ch, fill=fg, font=font)
    return image, missing


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--cell", default="8x16", help="cell size in pixels, WxH")
    args = parser.parse_args()
    cell_w, cell_h = (int(v) for v in args.cell.split("x"))
    with open(args.input, encoding="utf-8", errors="replace") as handle:
        rows = parse(handle.read())
    try:
        font = ImageFont.truetype("DejaVuSansMono.ttf", cell_h - 2)
    except OSError:
        font = None
    image, missing = render(rows, cell_w, cell_h, font)
    image.save(args.output)
    width = max((len(r) for r in rows), default=0)
    print(f"{args.output}: {width}×{len(rows)} cells, {image.width}×{image.height} pixels"
          + (f", {missing} characters fonts lack (outlined in magenta)" if missing else ""))


if __name__ == "__main__":
    sys.exit(main())
