#!/usr/bin/env python3
"""The Pillow peer: a meme the way memegen draws one (ImageDraw.text with a stroke).

    bench/pillow_meme.py IN OUT FONT TOP BOTTOM

Bold caps, white with a black outline, centered at the top and the bottom; the font size starts
at a tenth of the width and shrinks until the line fits in 95% of it; the outline is 1/15 of the
size. JPEG and WebP at quality 90, PNG at Pillow's default compression (level 6).
"""
import sys

from PIL import Image, ImageDraw, ImageFont

try:  # HEIC input, through pillow-heif (libheif)
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:
    pass


def fitted_font(path, text, width, draw):
    size = max(8, width // 10)
    while True:
        font = ImageFont.truetype(path, size)
        left, _, right, _ = draw.textbbox((0, 0), text, font=font, stroke_width=size // 15)
        if right - left <= width * 0.95 or size <= 8:
            return font, size
        size = max(8, int(size * 0.9))


def main():
    source, output, font_path, top, bottom = sys.argv[1:6]
    with Image.open(source) as image:
        image = image.convert("RGB")
    draw = ImageDraw.Draw(image)
    width, height = image.size
    margin = height // 40
    for text, at_top in ((top.upper(), True), (bottom.upper(), False)):
        if not text:
            continue
        font, size = fitted_font(font_path, text, width, draw)
        stroke = max(1, size // 15)
        left, upper, right, lower = draw.textbbox((0, 0), text, font=font, stroke_width=stroke)
        x = (width - (right - left)) // 2 - left
        y = margin - upper if at_top else height - margin - lower
        draw.text((x, y), text, font=font, fill="white", stroke_width=stroke, stroke_fill="black")
    if output.lower().endswith((".jpg", ".jpeg", ".webp")):
        image.save(output, quality=90)
    else:
        image.save(output)


if __name__ == "__main__":
    main()
