#!/usr/bin/env python3
"""Animated memes: memesh against ImageMagick, Pillow and gifsicle's optimizer, interleaved, on
the animations bench/make_animations.py makes (issue 16). Prints a Markdown section.

    bench/animation.py --memesh BIN --inputs DIR --out DIR [--runs N] [--python PY]
                       [--animation-bench BIN]

Each tool captions every frame of the input (top and bottom, Anton, white with a black
outline) and writes an animated GIF:

  memesh     memesh --home TMP -c 'load IN; caption TOP | BOTTOM; share file OUT.gif'
             (until the shell shares animations: memesh-animation-bench IN OUT.gif, the same
             AnimationRenderer in a process of its own, without the store)
  convert    ImageMagick: -coalesce, -annotate top and bottom, -layers Optimize
  pillow     bench/pillow_animation.py (memegen's way: each frame to RGB, ImageDraw.text with
             a stroke, save_all)
  gifsicle   ImageMagick's -coalesce -annotate written as a plain GIF, then gifsicle -O3 (the
             optimizing step by gifsicle; both processes timed)

Reported: wall time (median, min–max), memesh's time over each peer's, peak memory (maximum RSS
from wait4; for gifsicle the larger of its two processes), file size, and per-frame PSNR (mean
and minimum over the frames, R G B) of each GIF against that tool's own captioned frames in true
colour, before any palette: memesh's from memesh-animation-bench --truth (the same captions drawn
in true colour), ImageMagick's (and
gifsicle's) from the same -coalesce -annotate written as PNG frames, Pillow's from its frames
before save. The GIFs are decoded with Pillow.
"""
import argparse
import glob
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

TOP = "one does not simply"
BOTTOM = "benchmark memes"


def measure(argv):
    """Runs argv; returns (seconds, peak RSS in KiB, exit status, stderr)."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=errors, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        errors.seek(0)
        return seconds, usage.ru_maxrss, os.waitstatus_to_exitcode(status), errors.read().decode(
            errors="replace")


class Tool:
    def __init__(self, name, steps):
        self.name, self.steps = name, steps
        self.times, self.memory, self.error = [], [], None

    def run(self, source, output, scratch):
        total, peak = 0.0, 0
        for argv in self.steps(source, output, scratch):
            seconds, rss, status, errors = measure(argv)
            if status != 0:
                self.error = errors.strip().splitlines()[-1:] or [f"exit {status}"]
                return
            total += seconds
            peak = max(peak, rss)
        self.times.append(total)
        self.memory.append(peak)


def frames_of(path):
    """Every frame of an animation as RGB, composed, with Pillow."""
    from PIL import Image, ImageSequence
    with Image.open(path) as image:
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]


def psnr(frames, truths):
    """Per-frame PSNR (dB) of `frames` against `truths`: (mean, minimum)."""
    from PIL import ImageChops, ImageStat
    values = []
    for frame, truth in zip(frames, truths):
        squares = ImageStat.Stat(ImageChops.difference(frame, truth.convert("RGB"))).sum2
        mean = sum(squares) / (3 * frame.width * frame.height)
        values.append(99.0 if mean == 0 else 10 * math.log10(255 * 255 / mean))
    if len(frames) != len(truths) or not values:
        return None
    return statistics.mean(values), min(values)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memesh", required=True)
    parser.add_argument("--animation-bench", default=None)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--font", default="Fonts/Anton-Regular.ttf")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--only", default=None, help="one input's name")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    font = os.path.abspath(args.font)
    os.makedirs(args.out, exist_ok=True)

    def width_of(source):
        return int(subprocess.run(["identify", "-format", "%w\n", source], capture_output=True,
                                  text=True).stdout.split()[0])

    def annotate(source):
        size = max(8, width_of(source) // 10)
        return ["-font", font, "-pointsize", str(size), "-fill", "white", "-stroke", "black",
                "-strokewidth", str(max(1, size // 15)), "-gravity", "north", "-annotate",
                f"+0+{size // 4}", TOP.upper(), "-gravity", "south", "-annotate",
                f"+0+{size // 4}", BOTTOM.upper()]

    def memesh_shell(source, output, scratch):
        home = tempfile.mkdtemp(dir=scratch)
        return [[args.memesh, "--home", home, "-c",
                 f"load {source}; caption {TOP} | {BOTTOM}; share file {output}"]]

    def memesh_bench(source, output, scratch):
        return [[args.animation_bench, source, output, "--top", TOP, "--bottom", BOTTOM]]

    def convert(source, output, scratch):
        return [["convert", source, "-coalesce", *annotate(source), "-layers", "Optimize",
                 output]]

    def pillow(source, output, scratch):
        return [[args.python, os.path.join(here, "pillow_animation.py"), source, output, font,
                 TOP, BOTTOM]]

    def gifsicle(source, output, scratch):
        raw = os.path.join(scratch, "gifsicle-raw.gif")
        return [["convert", source, "-coalesce", *annotate(source), raw],
                ["gifsicle", "-O3", raw, "-o", output]]

    report = [f"### Animated GIF memes — {time.strftime('%Y-%m-%d %H:%M %Z')}", "",
              f"{os.cpu_count()} CPUs; {args.runs} interleaved runs per input. PSNR: per frame, "
              "against each tool's own captioned frames in true colour (mean / minimum).", ""]
    inputs = sorted(glob.glob(os.path.join(os.path.abspath(args.inputs), "anim-*.gif")))
    if args.only:
        inputs = [path for path in inputs if os.path.basename(path) == args.only]
    with tempfile.TemporaryDirectory() as scratch:
        probe = os.path.join(scratch, "probe.gif")
        status = measure(memesh_shell(inputs[0], probe, scratch)[0])[2]
        memesh = memesh_shell
        if (status != 0 or not os.path.exists(probe)) and args.animation_bench:
            memesh = memesh_bench
            report += ["memesh is timed through memesh-animation-bench (the shell does not "
                       "share animations yet): the same AnimationRenderer, without the store.", ""]
        for source in inputs:
            stem = os.path.basename(source)[:-4]
            tools = [Tool("memesh", memesh), Tool("convert", convert), Tool("pillow", pillow),
                     Tool("gifsicle", gifsicle)]
            outputs = {tool.name: os.path.join(args.out, f"{stem}-{tool.name}.gif")
                       for tool in tools}
            for run in range(args.runs):
                shift = run % len(tools)
                for tool in tools[shift:] + tools[:shift]:
                    if tool.error is None:
                        tool.run(source, outputs[tool.name], scratch)
            # The truths, untimed.
            truth_dir = os.path.join(scratch, stem)
            os.makedirs(os.path.join(truth_dir, "pillow"), exist_ok=True)
            os.makedirs(os.path.join(truth_dir, "memesh"), exist_ok=True)
            if args.animation_bench:
                subprocess.run([args.animation_bench, source, "unused.gif", "--top", TOP,
                                "--bottom", BOTTOM, "--truth", os.path.join(truth_dir, "memesh")],
                               check=True, capture_output=True)
            subprocess.run(["convert", source, "-coalesce", *annotate(source),
                            os.path.join(truth_dir, "im-%04d.png")], check=True)
            subprocess.run([args.python, os.path.join(here, "pillow_animation.py"), source,
                            os.path.join(truth_dir, "pillow.gif"), font, TOP, BOTTOM,
                            os.path.join(truth_dir, "pillow")], check=True)
            from PIL import Image
            im_truth = [Image.open(path) for path in
                        sorted(glob.glob(os.path.join(truth_dir, "im-*.png")))]
            truths = {
                "memesh": [Image.open(path) for path in sorted(glob.glob(
                    os.path.join(truth_dir, "memesh", "*.png")))] if args.animation_bench else None,
                "convert": im_truth, "gifsicle": im_truth,
                "pillow": [Image.open(path) for path in
                           sorted(glob.glob(os.path.join(truth_dir, "pillow", "*.png")))],
            }
            base = statistics.median(tools[0].times) if tools[0].times else None
            lines = [f"#### {os.path.basename(source)}", "",
                     "| tool | time, median (min–max) | memesh faster by | peak memory | file | "
                     "PSNR mean / min |", "|---|---:|---:|---:|---:|---:|"]
            for tool in tools:
                if tool.error:
                    lines.append(f"| {tool.name} | failed: {' '.join(tool.error)} | | | | |")
                    continue
                median = statistics.median(tool.times)
                ratio = f"{median / base:.1f}×" if base and tool is not tools[0] else ""
                size = os.path.getsize(outputs[tool.name])
                quality = None
                if truths[tool.name] is not None:
                    quality = psnr(frames_of(outputs[tool.name]), truths[tool.name])
                quality_text = f"{quality[0]:.2f} / {quality[1]:.2f} dB" if quality else "n/a"
                lines.append(
                    f"| {tool.name} | {median:.2f} s ({min(tool.times):.2f}–{max(tool.times):.2f})"
                    f" | {ratio} | {statistics.median(tool.memory) / 1024:.0f} MiB | "
                    f"{size / 1e6:.2f} MB | {quality_text} |")
            section = "\n".join(lines) + "\n"
            print(section, flush=True)
            report.append(section)
    with open(os.path.join(args.out, "animation.md"), "w") as file:
        file.write("\n".join(report) + "\n")
    print("\n".join(report[:4]))


if __name__ == "__main__":
    main()
