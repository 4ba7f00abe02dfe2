#!/usr/bin/env python3
"""The Pillow peer for animations, the way memegen captions a GIF: every frame converted to RGB,
the captions drawn with ImageDraw.text and a stroke (bench/pillow_meme.py's layout), then saved
with `save_all` (Pillow quantizes each frame and optimizes the GIF).

    bench/pillow_animation.py IN OUT FONT TOP BOTTOM [TRUTH_DIR]

With TRUTH_DIR, also writes each captioned frame before quantizing as TRUTH_DIR/NNN.png (not
timed by the bench: the truth its PSNR is measured against).
"""
import os
import sys

from PIL import Image, ImageDraw, ImageSequence

from pillow_meme import fitted_font


def caption(frame, font_path, top, bottom, fonts):
    draw = ImageDraw.Draw(frame)
    width, height = frame.size
    margin = height // 40
    for text, at_top in ((top.upper(), True), (bottom.upper(), False)):
        if not text:
            continue
        if text not in fonts:
            fonts[text] = fitted_font(font_path, text, width, draw)
        font, size = fonts[text]
        stroke = max(1, size // 15)
        left, upper, right, lower = draw.textbbox((0, 0), text, font=font, stroke_width=stroke)
        x = (width - (right - left)) // 2 - left
        y = margin - upper if at_top else height - margin - lower
        draw.text((x, y), text, font=font, fill="white", stroke_width=stroke, stroke_fill="black")


def main():
    source, output, font_path, top, bottom = sys.argv[1:6]
    truth = sys.argv[6] if len(sys.argv) > 6 else None
    frames, durations, fonts = [], [], {}
    with Image.open(source) as image:
        loop = image.info.get("loop", 0)
        for frame in ImageSequence.Iterator(image):
            durations.append(frame.info.get("duration", 100))
            rgb = frame.convert("RGB")
            caption(rgb, font_path, top, bottom, fonts)
            if truth:
                rgb.save(os.path.join(truth, f"{len(frames):03d}.png"), compress_level=1)
            frames.append(rgb)
    frames[0].save(output, save_all=True, append_images=frames[1:], duration=durations, loop=loop)


if __name__ == "__main__":
    main()
