#!/usr/bin/python3
"""Makes the animated benchmark inputs from the bench's photo (the Debian wallpaper
bench/make_inputs.py also uses): a slow pan and zoom across it, like a reaction clip.

    bench/make_animations.py SOURCE.jpg OUTDIR

    anim-480x270.gif    100 frames of 480×270, 4 cs each, looping forever
    anim-1080p.gif      30 frames of 1920×1080, 4 cs each, looping forever

The frames are cut and scaled with Pillow (Lanczos), then written as a GIF by ImageMagick's
convert (a palette per frame, dithered, as most GIFs on the web are): both Debian packages.
"""
import os
import subprocess
import sys
import tempfile

from PIL import Image

INPUTS = {"anim-480x270.gif": ((480, 270), 100), "anim-1080p.gif": ((1920, 1080), 30)}


def frames(image, size, count, scratch):
    """`count` PNG frames of `size` panning left to right and zooming in a little."""
    width, height = image.size
    paths = []
    for index in range(count):
        t = index / max(1, count - 1)
        zoom = 1.0 - 0.25 * t
        crop_width = int(width * 0.6 * zoom)
        crop_height = crop_width * size[1] // size[0]
        left = int((width - crop_width) * (0.2 + 0.6 * t))
        top = (height - crop_height) // 2
        frame = image.crop((left, top, left + crop_width, top + crop_height))
        path = os.path.join(scratch, f"frame-{index:03d}.png")
        frame.resize(size, Image.LANCZOS).save(path, compress_level=1)
        paths.append(path)
    return paths


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n\n")[1].strip())
    source, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    with Image.open(source) as image:
        image = image.convert("RGB")
        for name, (size, count) in INPUTS.items():
            path = os.path.join(outdir, name)
            if os.path.exists(path):
                continue
            with tempfile.TemporaryDirectory() as scratch:
                paths = frames(image, size, count, scratch)
                subprocess.run(
                    ["convert", "-delay", "4", "-loop", "0", *paths, path], check=True)
            print(f"{path}: {count} frames of {size[0]}×{size[1]}")


if __name__ == "__main__":
    main()
