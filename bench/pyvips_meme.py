#!/usr/bin/env python3
"""The pyvips peer: the same meme with libvips (text rendered by Pango, outline by dilation).

    bench/pyvips_meme.py IN OUT FONT TOP BOTTOM

Sizes follow bench/pillow_meme.py: a tenth of the width, shrunk until the line fits 95 % of it,
outline 1/15 of the size (a blurred and thresholded copy of the text, drawn black underneath).
JPEG at Q 90, PNG at compression 6 (zlib level 6, like Pillow's default).
"""
import sys

import pyvips


def text_mask(text, font_path, size, width):
    while True:
        mask = pyvips.Image.text(text, fontfile=font_path, font=f"Anton {size}", dpi=72)
        if mask.width <= width * 0.95 or size <= 8:
            return mask, size
        size = max(8, int(size * 0.9))


def main():
    source, output, font_path, top, bottom = sys.argv[1:6]
    image = pyvips.Image.new_from_file(source, access="sequential")
    if image.bands == 4:
        image = image.flatten(background=[255, 255, 255])
    width, height = image.width, image.height
    margin = height // 40
    for text, at_top in ((top.upper(), True), (bottom.upper(), False)):
        if not text:
            continue
        mask, size = text_mask(text, font_path, max(8, width // 10), width)
        stroke = max(1, size // 15)
        padded = mask.embed(stroke, stroke, mask.width + 2 * stroke, mask.height + 2 * stroke)
        outline = (padded.gaussblur(stroke / 2 + 0.5) > 8).ifthenelse(255, 0).cast("uchar")
        x = (width - padded.width) // 2
        y = margin if at_top else height - margin - padded.height
        black = outline.new_from_image([0, 0, 0]).bandjoin(outline).copy(interpretation="srgb")
        white = padded.new_from_image([255, 255, 255]).bandjoin(padded).copy(interpretation="srgb")
        image = image.composite2(black, "over", x=x, y=y).composite2(white, "over", x=x, y=y)
        image = image.extract_band(0, n=3)
    if output.lower().endswith((".jpg", ".jpeg")):
        image.jpegsave(output, Q=90)
    elif output.lower().endswith(".webp"):
        image.webpsave(output, Q=90)
    else:
        image.pngsave(output, compression=6)


if __name__ == "__main__":
    main()
