#!/usr/bin/env python3
"""Makes the benchmark's input photos: one Debian wallpaper at 0.5, 2 and 12 megapixels.

    bench/make_inputs.py SOURCE.jpg OUTDIR

SOURCE is a large photo (mate-backgrounds' Elephants_5640x3172.jpg, 17.9 MP). It is cropped
to 4:3 around its center and scaled with Lanczos to 816×612 (0.5 MP), 1632×1224 (2 MP) and
4000×3000 (12 MP), saved as baseline JPEG quality 90 without EXIF: in-0.5mp.jpg, in-2mp.jpg,
in-12mp.jpg. The same picture at each size, so only the pixel count changes.
"""
import os
import sys

from PIL import Image

SIZES = {"0.5mp": (816, 612), "2mp": (1632, 1224), "12mp": (4000, 3000)}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n\n")[1].strip())
    source, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    with Image.open(source) as image:
        image = image.convert("RGB")
        width, height = image.size
        crop_width = min(width, height * 4 // 3)
        crop_height = crop_width * 3 // 4
        left, top = (width - crop_width) // 2, (height - crop_height) // 2
        image = image.crop((left, top, left + crop_width, top + crop_height))
        if crop_width < 4000:
            sys.exit(f"{source}: {width}×{height} is too small for a 12 MP input")
        for name, size in SIZES.items():
            path = os.path.join(outdir, f"in-{name}.jpg")
            image.resize(size, Image.LANCZOS).save(path, quality=90)
            print(f"{path}: {size[0]}×{size[1]}")


if __name__ == "__main__":
    main()
