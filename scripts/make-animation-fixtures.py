#!/usr/bin/env python3
"""Makes the animated GIF and WebP fixtures in Tests/MemeMediaTests/Fixtures/animation/ from the
project's own pictures (transcripts/images/cat.png, square.png, clear.png), with Debian's
encoders: ImageMagick's convert, gifsicle, and img2webp (package webp). Run once; the results are
committed, the tests never run this.

Each GIF comes with ImageMagick's coalesced frames beside it as NAME.ref.png (the frames stacked
top to bottom, transparent where the viewer shows nothing): the tests compare memesh's frames with
them. Each WebP comes with the frames it was made from (lossless, so they are its pixels).

    pan.gif           8 frames of 96×72 cut from cat.png, moving 8 pixels right each frame,
                      delays 0, 1, 2, 5, 10, 20, 30, 40 cs, looping forever (NETSCAPE2.0 0);
                      a local palette on each frame
    pan-optimized.gif pan.gif through `gifsicle -O3`: later frames cropped to what changed, the
                      unchanged pixels transparent
    disposal.gif      gifsicle: cat.png (160×120), then square.png at (10, 10) disposed to
                      previous, then clear.png at (60, 40) (transparent pixels) disposed to
                      background, then square.png at (90, 50); local palettes, the last frame
                      interlaced; loop count 3; delays 50 cs
    noloop.gif        two frames (cat.png, square.png) without a NETSCAPE2.0 block (plays once)
    pan.webp          img2webp -lossless of the 8 pan frames, 80 ms then 120 ms alternating,
                      loop count 2
    pan-lossy.webp    img2webp -lossy -q 80 of the same frames, loop forever

For transcripts/animation.t it also copies pan.gif and pan.webp to transcripts/images/.

Usage: scripts/make-animation-fixtures.py
"""

import os
import shutil
import subprocess
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
IMAGES = os.path.join(ROOT, "transcripts", "images")
OUT = os.path.join(ROOT, "Tests", "MemeMediaTests", "Fixtures", "animation")
PAN_DELAYS = [0, 1, 2, 5, 10, 20, 30, 40]


def run(*command):
    subprocess.run(command, check=True)


def reference(gif):
    """ImageMagick's coalesced frames, stacked, as GIF.ref.png."""
    run("convert", gif, "-coalesce", "-background", "none", "-append", "+repage", gif + ".ref.png")


def main():
    os.makedirs(OUT, exist_ok=True)
    cat = os.path.join(IMAGES, "cat.png")
    square = os.path.join(IMAGES, "square.png")
    clear = os.path.join(IMAGES, "clear.png")
    with tempfile.TemporaryDirectory() as scratch:
        frames = []
        for index in range(8):
            frame = os.path.join(scratch, f"pan-{index}.png")
            run("convert", cat, "-crop", f"96x72+{index * 8}+24", "+repage", frame)
            frames.append(frame)
        pan = os.path.join(OUT, "pan.gif")
        command = ["convert", "-loop", "0"]
        for frame, delay in zip(frames, PAN_DELAYS):
            command += ["-delay", str(delay), frame]
        run(*command, pan)
        reference(pan)
        optimized = os.path.join(OUT, "pan-optimized.gif")
        run("gifsicle", "-O3", pan, "-o", optimized)
        reference(optimized)

        parts = {}
        for name, path in [("cat", cat), ("square", square), ("clear", clear)]:
            parts[name] = os.path.join(scratch, name + ".gif")
            run("convert", path, parts[name])
        disposal = os.path.join(OUT, "disposal.gif")
        run("gifsicle", "--loopcount=3", "--delay", "50", parts["cat"],
            "--disposal=previous", "--position", "10,10", parts["square"],
            "--disposal=background", "--position", "60,40", parts["clear"],
            "--disposal=none", "--interlace", "--position", "90,50", parts["square"],
            "-o", disposal)
        reference(disposal)
        noloop = os.path.join(OUT, "noloop.gif")
        run("gifsicle", "--delay", "25", parts["cat"], parts["square"], "-o", noloop)
        reference(noloop)

        command = ["img2webp", "-loop", "2", "-lossless"]
        for index, frame in enumerate(frames):
            command += ["-d", "80" if index % 2 == 0 else "120", frame]
        run(*command, "-o", os.path.join(OUT, "pan.webp"))
        run("convert", *frames, "-append", "+repage", os.path.join(OUT, "pan.webp.ref.png"))
        command = ["img2webp", "-loop", "0", "-lossy", "-q", "80"]
        for frame in frames:
            command += ["-d", "100", frame]
        run(*command, "-o", os.path.join(OUT, "pan-lossy.webp"))
    for name in ("pan.gif", "pan.webp"):
        shutil.copyfile(os.path.join(OUT, name), os.path.join(IMAGES, name))
    for name in sorted(os.listdir(OUT)):
        print(os.path.join("Tests/MemeMediaTests/Fixtures/animation", name))


if __name__ == "__main__":
    main()
