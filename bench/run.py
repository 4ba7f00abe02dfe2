#!/usr/bin/env python3
"""Runs memesh against its peers, interleaved, and prints a Markdown report (issue 8).

    bench/run.py --memesh BIN --inputs DIR --out DIR [--runs N] [--startup-runs N]
                 [--render-bench BIN] [--floor BIN] [--python PY] [--sizes 0.5,2,12]

For every input (in-0.5mp.jpg, in-2mp.jpg, in-12mp.jpg) and output format (JPEG, PNG), each
run executes the tools one after another in a rotating order, so a slow minute on a shared
machine hits every tool alike:

  memesh    memesh --home TMP -c 'load IN; caption TOP | BOTTOM; share file OUT --format F'
            (until the shell can do that, memesh-render-bench IN OUT: the same MemeRenderer
            load and render, without the store)
  floor     bench/floor.c: libjpeg-turbo decode, then libjpeg q90 or libpng zlib 6 encode only
  convert   ImageMagick: -font Anton -fill white -stroke black -annotate top and bottom
  pillow    bench/pillow_meme.py (memegen's way: ImageDraw.text with stroke_width)
  pyvips    bench/pyvips_meme.py (libvips; Pango text, outline by blur and threshold)

Then a phone's HEIC (12 MP in 512×512 tiles) → JPEG meme, against the same peers (Pillow
with pillow-heif) and a floor of libheif decode + libjpeg encode (bench/floor-heif.c).

Then caption → preview (issue 7): in-process through memesh-render-bench --preview, and the
cost of one `caption …; preview` after `load` of each input, drawn as symbols in a
pseudo-terminal; the preview renders from the editor's proxy, so it should not grow with the
photo. Then a store of 10,000 memes (`browse --tsv`, `show 5`, `edit 5`, `quit` against a store of 10,
indexes written by memesh-store-torture). Then start-up alone: `memesh -c quit` against
`sqlite3 :memory: .quit`.

memesh also saves every shared meme into its store (original, rendered file, thumbnail, index);
the peers only write the output file.

Wall time is measured around each process (time.perf_counter); peak memory is the child's
maximum resident set size from wait4(2), the number `/usr/bin/time -v` prints as "Maximum
resident set size". Reported: median, min–max, memesh's median over the peer's, median peak
memory. A tool that fails is reported with its error instead of numbers. Every output is
checked to be a non-empty file of the asked format.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = "one does not simply"
BOTTOM = "benchmark memes"
FORMATS = {"jpeg": ".jpg", "png": ".png", "webp": ".webp"}
MAGIC = {"jpeg": b"\xff\xd8\xff", "png": b"\x89PNG\r\n\x1a\n", "webp": b"RIFF"}


def measure(argv, env=None):
    """Runs argv; returns (seconds, peak RSS in KiB, exit status, stderr)."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=errors, stdin=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        return elapsed, usage.ru_maxrss, process.returncode, errors.read().decode(errors="replace")


def check_output(path, fmt):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return f"no output file {path}"
    with open(path, "rb") as handle:
        if not handle.read(8).startswith(MAGIC[fmt]):
            return f"{path} is not a {fmt.upper()} file"
    return None


class Tool:
    def __init__(self, name, command):
        self.name = name
        self.command = command  # (input, output, format, scratch) -> argv
        self.times, self.memory, self.sizes, self.error = [], [], [], None

    def run(self, source, output, fmt, scratch):
        if self.error:
            return
        if os.path.exists(output):
            os.remove(output)
        argv = self.command(source, output, fmt, scratch)
        seconds, rss, status, errors = measure(argv)
        problem = None
        if status != 0:
            lines = [line for line in errors.strip().splitlines() if line.strip()]
            problem = f"exit {status}: {lines[-1] if lines else 'no message'}"
        else:
            problem = check_output(output, fmt)
        if problem:
            self.error = problem
        else:
            self.times.append(seconds)
            self.memory.append(rss)
            self.sizes.append(os.path.getsize(output))


def milliseconds(seconds):
    return f"{seconds * 1000:.0f}" if seconds >= 0.1 else f"{seconds * 1000:.1f}"


def summary(tool):
    if tool.error:
        return f"failed ({tool.error})", None
    median = statistics.median(tool.times)
    text = (f"{milliseconds(median)} ms ({milliseconds(min(tool.times))}–"
            f"{milliseconds(max(tool.times))}), {statistics.median(tool.memory) / 1024:.0f} MiB")
    return text, median


def table(title, tools, reference):
    lines = [f"### {title}", "", "| tool | median (min–max), peak RSS, file | memesh / tool |",
             "|---|---|---|"]
    ref_text, ref_median = summary(reference)
    for tool in tools:
        text, median = summary(tool)
        if tool is reference:
            ratio = "—"
        elif ref_median is None or median is None:
            ratio = "n/a"
        else:
            ratio = f"{ref_median / median:.2f}×"
        size = ""
        if tool.sizes:
            size = f", {statistics.median(tool.sizes) / 1e6:.2f} MB"
        lines.append(f"| {tool.name} | {text}{size} | {ratio} |")
    return "\n".join(lines) + "\n"


def preview_section(args, inputs, scratch, repeats=10):
    """Caption → preview: a session that loads and then captions and previews `repeats` times,
    minus one that only loads, divided by `repeats`. Run under script(1) so memesh sees a
    terminal and draws symbols (TERM=xterm-256color, COLORTERM=truecolor)."""
    script_tool = shutil.which("script")
    lines = ["### caption → preview (symbols, in a pseudo-terminal)", "",
             "| input | load only | load + 10 × (caption; preview) | per caption → preview |",
             "|---|---|---|---|"]
    if not script_tool:
        return "\n".join(lines + ["| — | script(1) missing (util-linux) | | |"]) + "\n"
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor")
    env.pop("NO_COLOR", None)
    for name in inputs:
        source = os.path.join(os.path.abspath(args.inputs), name)
        edits = "; ".join(f"caption take {i} | preview {i}; preview" for i in range(repeats))
        sessions = {"load": f"load {source}", "edit": f"load {source}; {edits}"}
        times = {"load": [], "edit": []}
        error = None
        for _ in range(args.runs):
            for kind, commands in sessions.items():
                home = tempfile.mkdtemp(dir=scratch)
                inner = f"{args.memesh} --home {home} -c '{commands}'"
                output = os.path.join(scratch, "preview.out")
                with open(output, "wb") as sink:
                    start = time.perf_counter()
                    status = subprocess.run([script_tool, "-qec", inner, "/dev/null"],
                                            stdout=sink, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=env).returncode
                    times[kind].append(time.perf_counter() - start)
                with open(output, "rb") as drawn:
                    text = drawn.read()
                if status != 0:
                    error = f"exit {status}: {text.decode(errors='replace').strip()[-160:]}"
                elif kind == "edit" and b"\x1b[38;2;" not in text:
                    error = "no truecolor symbols in the preview output"
        if error:
            lines.append(f"| {name} | failed ({error}) | | |")
            continue
        load, edit = statistics.median(times["load"]), statistics.median(times["edit"])
        lines.append(f"| {name} | {milliseconds(load)} ms | {milliseconds(edit)} ms | "
                     f"{milliseconds(max(0.0, edit - load) / repeats)} ms |")
    return "\n".join(lines) + "\n"


def place_section(args, source, scratch, frames=21):
    """`place 1` frames (issue 14), in-process through memesh-render-bench --place: per terminal
    mode and window, the median frame against a whole preview of the same frame in the same run.
    The targets: a frame never slower than a whole preview of it in the same run, and under
    50 ms."""
    lines = ["### place: a frame per key (in-process, box 1 moved and turned; cells of 10×20 px)",
             "", "| window | mode | frame median (max) | whole preview | frame / whole | under 50 ms |",
             "|---|---|---|---|---|---|"]
    pattern = re.compile(r"place (\S+) (\S+) cells: median ([\d.]+) ms \(max ([\d.]+)\), "
                         r"whole preview ([\d.]+) ms")
    for window in ("80x24", "160x50"):
        done = subprocess.run(
            [args.render_bench, source, os.path.join(scratch, "place-bench.jpg"),
             "--place", str(frames), "--window", window], capture_output=True, text=True)
        for line in done.stdout.splitlines():
            found = pattern.search(line)
            if not found:
                continue
            mode, cells, median, peak, whole = found.groups()
            ratio = float(median) / max(0.001, float(whole))
            lines.append(f"| {window} ({cells}) | {mode} | {median} ms ({peak}) | {whole} ms | "
                         f"{ratio:.2f}× ({'met' if ratio <= 1 else 'not met'}) | "
                         f"{'met' if float(median) < 50 else 'not met'} |")
        if done.returncode != 0:
            lines.append(f"| {window} | failed: {done.stderr.strip()[-160:]} | | | | |")
    return "\n".join(lines) + "\n"


def store_section(args, scratch, count=10_000):
    """`browse --tsv`, `show ID` and `edit ID` on a store of `count` memes (index written by
    memesh-store-torture, tiny stand-in files so no meme has a problem), against a store of 10."""
    lines = [f"### a store of {count:,} memes", "",
             "| command | 10 memes | " + f"{count:,} memes |", "|---|---|---|"]
    homes = {}
    # `edit ID` decodes the meme's original: a real (tiny) JPEG stands in for each.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "transcripts",
                           "images", "photo.jpg"), "rb") as handle:
        tiny_jpeg = handle.read()
    for size in (10, count):
        home = tempfile.mkdtemp(dir=scratch)
        memes = os.path.join(home, "memes")
        subprocess.run([args.store_torture, "generate", memes, str(size)], check=True,
                       stdout=subprocess.DEVNULL)
        for number in range(1, size + 1):
            folder = os.path.join(memes, str(number))
            os.makedirs(folder, exist_ok=True)
            for name, content in (("original.jpg", tiny_jpeg),
                                  ("meme.jpg", b"\xff\xd8\xff\xe0" + b"0" * 64),
                                  ("thumb.png", b"\x89PNG\r\n\x1a\n" + b"0" * 64)):
                with open(os.path.join(folder, name), "wb") as handle:
                    handle.write(content)
        # memesh trusts its binary index cache to vouch for index.plist by the file's identity
        # only once the index has been unchanged for 3 s (OpenedFile.settled: file times are
        # coarse, so a younger file could change without its times showing it). Until then every
        # command reads and hashes the 9 MB XML (`show 5` took 40 ms instead of 6 ms when this
        # section measured right after generating the store). Wait for that, as a user's store
        # has settled long before; then one run writes the trusted cache, as a user's first does.
        index = os.path.join(memes, "index.plist")
        status = os.stat(index)
        time.sleep(max(0.0, max(status.st_mtime, status.st_ctime) + 3.2 - time.time()))
        subprocess.run([args.memesh, "--home", home, "-c", "browse --tsv"],
                       stdout=subprocess.DEVNULL, check=True)
        homes[size] = home
    for command in ("browse --tsv", "show 5", "quit", "edit 5"):
        tools = {size: Tool(str(size), lambda s, o, f, d, h=homes[size]: [
            args.memesh, "--home", h, "-c", command]) for size in homes}
        for _ in range(max(5, args.runs)):
            for size, tool in tools.items():
                seconds, rss, status, errors = measure(tool.command(None, None, None, scratch))
                if status != 0 and not tool.error:
                    tool.error = f"exit {status}: {errors.strip()[-160:]}"
                tool.times.append(seconds)
                tool.memory.append(rss)
        cells = [summary(tools[size])[0] for size in homes]
        lines.append(f"| `memesh -c '{command}'` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def heic_section(args, memesh_shell, convert, pillow, pyvips, scratch):
    """HEIC → JPEG meme: a phone's photo (512×512 tiles in a grid, as phones write HEIC) to a
    captioned JPEG. memesh is asked for no format: a HEIC picture gives a JPEG meme. The floor
    is bench/floor-heif.c (libheif decode, libjpeg q90 encode)."""
    def memesh(source, output, fmt, scratch):
        home = tempfile.mkdtemp(dir=scratch)
        script = f"load {source}; caption {TOP} | {BOTTOM}; share file {output}"
        return [args.memesh, "--home", home, "-c", script]

    tools = [Tool("memesh", memesh)]
    if args.floor_heif:
        tools.append(Tool("floor (C)", lambda s, o, f, d: [args.floor_heif, s, o]))
    tools += [Tool("convert", convert), Tool("pillow", pillow)]
    if subprocess.run([args.python, "-c", "import pyvips"], capture_output=True).returncode == 0:
        tools.append(Tool("pyvips", pyvips))
    source = os.path.abspath(args.heic)
    for run in range(args.runs):
        shift = run % len(tools)
        for tool in tools[shift:] + tools[:shift]:
            output = os.path.join(os.path.abspath(args.out),
                                  f"heic-{tool.name.split()[0]}.jpg")
            tool.run(source, output, "jpeg", scratch)
    return table(f"{os.path.basename(args.heic)} → JPEG (HEIC in, phone layout)", tools, tools[0])


def splice_section(args, inputs, scratch, memesh, floor, convert):
    """Issue 19's targets on the largest photo: memesh's JPEG share (spliced into the photo's
    own data) against the C floor and ImageMagick in the same interleaved runs, then the
    splice's parts in-process (memesh-splice-bench) for memesh's two captions and for four boxes
    down the picture (two in the middle)."""
    name = inputs[-1]
    source = os.path.join(os.path.abspath(args.inputs), name)
    tools = [Tool("memesh (spliced)", memesh), Tool("floor (C)", floor), Tool("convert", convert)]
    for run in range(args.runs):
        shift = run % len(tools)
        for tool in tools[shift:] + tools[:shift]:
            output = os.path.join(os.path.abspath(args.out),
                                  f"splice-{name[:-4]}-{tool.name.split()[0]}.jpg")
            tool.run(source, output, "jpeg", scratch)
    lines = [table(f"issue 19: {name} → JPEG, spliced", tools, tools[0])]
    medians = [None if tool.error else statistics.median(tool.times) for tool in tools]
    if None not in medians:
        share, floor_time, convert_time = medians
        peak = statistics.median(tools[0].memory) * 1024 / 1e6
        lines += [
            f"- share / floor: {share / floor_time:.2f}× (target ≤ 0.6×: "
            f"{'met' if share <= 0.6 * floor_time else 'not met'})",
            f"- ImageMagick / share: {convert_time / share:.1f}× (target ≥ 8×: "
            f"{'met' if convert_time >= 8 * share else 'not met'})",
            f"- peak memory: {peak:.0f} MB (target < 40 MB: {'met' if peak < 40 else 'not met'})",
        ]
        if args.splice_bench:
            for layout in ["top-bottom", "four"]:
                done = subprocess.run(
                    [args.splice_bench, source, os.path.join(scratch, "splice-bench.jpg"),
                     "--layout", layout, "--runs", str(max(3, args.runs))],
                    capture_output=True, text=True)
                line = done.stdout.strip() or f"failed: {done.stderr.strip()[-200:]}"
                lines.append(f"- in-process, {line}")
                parts = {name: float(value) for name, value in re.findall(
                    r"(scan|bands|write|store) ([0-9.]+) ms", line)}
                if layout == "top-bottom" and len(parts) == 4:
                    # The store's part waits on the disk (fsyncs: journal commits); the others
                    # are CPU work on two threads.
                    named = {"entropy decode (scan index)": parts["scan"],
                             "band work": parts["bands"], "writing": parts["write"],
                             "store (fsyncs)": parts["store"]}
                    bound = max(named, key=named.get)
                    lines.append(
                        "- the share's split: " + ", ".join(
                            f"{name} {value:.1f} ms" for name, value in named.items())
                        + f"; the largest, {bound}, bounds it")
                whole = re.search(r"whole ([0-9.]+) ms", line)
                if layout == "four" and whole:
                    ratio = float(whole.group(1)) / 1000 / floor_time
                    lines.append(
                        f"- four boxes (two in the middle), read + index + splice in-process / "
                        f"floor process: {ratio:.2f}× (target < 1×: "
                        f"{'met' if ratio < 1 else 'not met'}; no process start, captions or store)")
    lines += fallback_rows(args, source, scratch)
    return "\n".join(lines) + "\n"


def turned_copy(source, output):
    """The photo stored sideways with EXIF orientation 6, as a portrait phone photo is: its pixels
    turned a quarter (ImageMagick, quality 90, 4:2:0) and an EXIF APP1 saying "turn 90° right"."""
    raw = output + ".raw.jpg"
    subprocess.run(["convert", source, "-rotate", "270", "-quality", "90", "-sampling-factor",
                    "2x2", raw], check=True)
    data = open(raw, "rb").read()
    tiff = (b"MM\x00\x2a" + (8).to_bytes(4, "big") + (1).to_bytes(2, "big")
            + bytes.fromhex("0112 0003 00000001 0006 0000".replace(" ", "")) + bytes(4))
    body = b"Exif\x00\x00" + tiff
    with open(output, "wb") as handle:
        handle.write(data[:2] + b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body + data[2:])


def fallback_rows(args, source, scratch):
    """Issue 19 item 3: each kind of photo memesh cannot splice, shared the way it falls back to
    (the whole photo decoded and encoded), interleaved with the spliced share of the same photo;
    and for a turned photo, the other way (jpegtran's lossless transpose, then a splice)."""
    if not shutil.which("jpegtran"):
        return ["- fallbacks: not measured (jpegtran missing)"]
    made = os.path.join(scratch, "fallbacks")
    os.makedirs(made, exist_ok=True)
    inputs = {}
    for name, argv in [("progressive", ["jpegtran", "-progressive", "-copy", "all"]),
                       ("arithmetic", ["jpegtran", "-arithmetic", "-copy", "all"])]:
        inputs[name] = os.path.join(made, name + ".jpg")
        subprocess.run(argv + ["-outfile", inputs[name], source], check=True)
    inputs["CMYK"] = os.path.join(made, "cmyk.jpg")
    subprocess.run(["convert", source, "-colorspace", "CMYK", "-quality", "90", inputs["CMYK"]],
                   check=True)
    inputs["EXIF orientation 6"] = os.path.join(made, "turned.jpg")
    turned_copy(source, inputs["EXIF orientation 6"])
    # The turned photo made upright losslessly (the 8-pixel partial MCU column trimmed; without
    # its EXIF, whose orientation would turn it again).
    upright = os.path.join(made, "transposed.jpg")

    def share(path, crop=""):
        def command(_source, output, fmt, scratch_dir):
            home = tempfile.mkdtemp(dir=scratch_dir)
            script = f"load {path}; {crop}caption {TOP} | {BOTTOM}; share file {output}"
            return [args.memesh, "--home", home, "-c", script]
        return command

    tools = [Tool("spliced", share(source))]
    tools += [Tool(name, share(path)) for name, path in inputs.items()]
    tools.append(Tool("unaligned crop", share(source, "crop 8 8 3984 2984; ")))
    tools.append(Tool("jpegtran -rotate 90", lambda s, o, f, d: [
        "jpegtran", "-rotate", "90", "-trim", "-copy", "none", "-outfile", upright,
        inputs["EXIF orientation 6"]]))
    tools.append(Tool("splice of the transposed", share(upright)))
    subprocess.run(tools[-2].command(None, None, None, scratch), check=True)
    for run in range(args.runs):
        shift = run % len(tools)
        for tool in tools[shift:] + tools[:shift]:
            output = os.path.join(scratch, f"fallback-{tools.index(tool)}.jpg")
            if tool.name == "jpegtran -rotate 90":
                output = upright
            tool.run(source, output, "jpeg", scratch)
    lines = ["", f"Photos that cannot be spliced ({os.path.basename(source)}, the whole photo decoded "
             "and encoded), against the spliced share in the same runs:", "",
             "| photo | memesh share | over spliced | peak memory |", "|---|---:|---:|---:|"]
    spliced = statistics.median(tools[0].times) if not tools[0].error else None
    for tool in tools:
        if tool.error:
            lines.append(f"| {tool.name} | {tool.error} | | |")
            continue
        median = statistics.median(tool.times)
        ratio = f"{median / spliced:.2f}×" if spliced else ""
        peak = statistics.median(tool.memory) / 1024
        lines.append(f"| {tool.name} | {median * 1000:.0f} ms | {ratio} | {peak:.0f} MiB |")
    turned, transpose, after = (next(tool for tool in tools if tool.name == name) for name in
                                ["EXIF orientation 6", "jpegtran -rotate 90",
                                 "splice of the transposed"])
    if not (turned.error or transpose.error or after.error):
        both = statistics.median(transpose.times) + statistics.median(after.times)
        lines.append(f"- turned photo: lossless transpose then splice {both * 1000:.0f} ms "
                     f"(jpegtran alone peaks at {statistics.median(transpose.memory) / 1024:.0f} "
                     f"MiB for its coefficients) against today's whole re-encode "
                     f"{statistics.median(turned.times) * 1000:.0f} ms")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memesh", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--font", default="Fonts/Anton-Regular.ttf")
    parser.add_argument("--convert", default="/usr/bin/convert")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--startup-runs", type=int, default=20)
    parser.add_argument("--render-bench", default=None)
    parser.add_argument("--store-torture", default=None)
    parser.add_argument("--floor", default=None)
    parser.add_argument("--splice-bench", default=None)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--sizes", default=None, help="comma-separated megapixels, e.g. 12")
    parser.add_argument("--heic", default=None, help="a phone-style HEIC for the HEIC row")
    parser.add_argument("--floor-heif", default=None)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(args.out, exist_ok=True)
    font = os.path.abspath(args.font)

    def memesh_shell(source, output, fmt, scratch):
        # A fresh store each run: share always saves into Sent Memes.
        home = tempfile.mkdtemp(dir=scratch)
        script = f"load {source}; caption {TOP} | {BOTTOM}; share file {output} --format {fmt}"
        return [args.memesh, "--home", home, "-c", script]

    def render_bench(source, output, fmt, scratch):
        return [args.render_bench, source, output, "--top", TOP, "--bottom", BOTTOM]

    def floor(source, output, fmt, scratch):
        if fmt == "webp":
            # libwebp's own tool: libjpeg decode, the encode memesh asks for (quality 90,
            # method 2, threads), nothing else.
            return ["cwebp", "-quiet", "-q", "90", "-m", "2", "-mt", source, "-o", output]
        return [args.floor, source, output]

    def pyvips(source, output, fmt, scratch):
        return [args.python, os.path.join(here, "pyvips_meme.py"), source, output, font, TOP,
                BOTTOM]

    def convert(source, output, fmt, scratch):
        # The size and outline memegen and memesh use: a tenth of the width, outline 1/15 of it.
        from_width = int(subprocess.run(
            [args.convert.replace("convert", "identify"), "-format", "%w", source],
            capture_output=True, text=True).stdout or 1000)
        size = max(8, from_width // 10)
        quality = ["-quality", "90"] if fmt in ("jpeg", "webp") else []
        return [args.convert, source, "-font", font, "-pointsize", str(size), "-fill", "white",
                "-stroke", "black", "-strokewidth", str(max(1, size // 15)),
                "-gravity", "north", "-annotate", f"+0+{size // 4}", TOP.upper(),
                "-gravity", "south", "-annotate", f"+0+{size // 4}", BOTTOM.upper(),
                *quality, output]

    def pillow(source, output, fmt, scratch):
        return [args.python, os.path.join(here, "pillow_meme.py"), source, output, font,
                TOP, BOTTOM]

    report = [f"## memesh vs peers — {time.strftime('%Y-%m-%d %H:%M %Z')}", "",
              f"{os.cpu_count()} CPUs; {args.runs} interleaved runs per cell, "
              f"{args.startup_runs} for start-up. JPEG quality 90 for every tool; PNG at each "
              "tool's default compression. Peak memory: maximum RSS (wait4). memesh also saves each "
              "meme into its store; the peers only write the file.", ""]
    print("\n".join(report), flush=True)

    inputs = sorted(
        (name for name in os.listdir(args.inputs) if name.startswith("in-")),
        key=lambda name: float(name[3:].split("mp")[0]))
    if args.sizes:
        wanted = {float(size) for size in args.sizes.split(",")}
        inputs = [name for name in inputs if float(name[3:].split("mp")[0]) in wanted]
    with tempfile.TemporaryDirectory() as scratch:
        # Does the shell already load, caption and share? Otherwise time MemeRenderer through
        # memesh-render-bench (same load and render, no store).
        probe_out = os.path.join(scratch, "probe.jpg")
        probe = measure(memesh_shell(os.path.join(os.path.abspath(args.inputs), inputs[0]),
                                     probe_out, "jpeg", scratch))
        shell_ready = probe[2] == 0 and check_output(probe_out, "jpeg") is None
        if shell_ready or not args.render_bench:
            memesh, memesh_name = memesh_shell, "memesh"
        else:
            memesh, memesh_name = render_bench, "memesh-render-bench"
            note = ("The shell cannot share yet (`memesh -c 'load …; share file …'` failed), so "
                    "memesh is timed through memesh-render-bench: MemeRenderer's load and render "
                    "in a release process of its own, without the store.")
            print(note + "\n", flush=True)
            report.append(note + "\n")
        for name in inputs:
            source = os.path.join(os.path.abspath(args.inputs), name)
            for fmt, extension in FORMATS.items():
                tools = [Tool(memesh_name, memesh)]
                if args.floor:
                    tools.append(Tool("floor (C)", floor))
                tools += [Tool("convert", convert), Tool("pillow", pillow)]
                if subprocess.run([args.python, "-c", "import pyvips"],
                                  capture_output=True).returncode == 0:
                    tools.append(Tool("pyvips", pyvips))
                stem = name[:-4]
                for run in range(args.runs):
                    shift = run % len(tools)
                    order = tools[shift:] + tools[:shift]
                    for tool in order:
                        output = os.path.join(
                            os.path.abspath(args.out),
                            f"{stem}-{tool.name.split()[0]}{extension}")
                        tool.run(source, output, fmt, scratch)
                section = table(f"{name} → {fmt.upper()}", tools, tools[0])
                print(section, flush=True)
                report.append(section)

        if args.heic:
            report.append(heic_section(args, memesh_shell, convert, pillow, pyvips, scratch))
            print(report[-1], flush=True)

        if shell_ready and args.floor:
            report.append(splice_section(args, inputs, scratch, memesh, floor, convert))
            print(report[-1], flush=True)

        if args.render_bench:
            lines = ["### caption → preview, in-process (MemeRenderer proxy, symbols, 80×20)", "",
                     "| input | median (min, max) over 15 |", "|---|---|"]
            for name in inputs:
                source = os.path.join(os.path.abspath(args.inputs), name)
                done = subprocess.run(
                    [args.render_bench, source, os.path.join(scratch, "preview-bench.jpg"),
                     "--preview", "15"], capture_output=True, text=True)
                line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr
                lines.append(f"| {name} | {line.replace('caption → preview: ', '')} |")
            report.append("\n".join(lines) + "\n")
            print(report[-1], flush=True)
            report.append(place_section(
                args, os.path.join(os.path.abspath(args.inputs), inputs[-1]), scratch))
            print(report[-1], flush=True)
        if shell_ready:
            report.append(preview_section(args, inputs, scratch))
        else:
            report.append("### caption → preview\n\nnot measured: the shell is not there yet\n")
        print(report[-1], flush=True)

        if args.store_torture and shell_ready:
            report.append(store_section(args, scratch))
            print(report[-1], flush=True)

        startup = [
            Tool("memesh -c quit",
                 lambda s, o, f, d: [args.memesh, "--home", tempfile.mkdtemp(dir=d), "-c", "quit"]),
            Tool("sqlite3 :memory: .quit",
                 lambda s, o, f, d: [shutil.which("sqlite3") or "sqlite3", ":memory:", ".quit"]),
        ]
        # The same start with a draft of the largest photo waiting (restored at every start;
        # its picture is read and decoded only when a command needs it).
        draft_home = tempfile.mkdtemp(dir=scratch)
        largest = os.path.join(os.path.abspath(args.inputs), inputs[-1])
        made = measure([args.memesh, "--home", draft_home, "-c",
                        f"load '{largest}'; top a draft"])
        if made[2] == 0:
            startup.append(Tool(f"memesh -c quit, {inputs[-1]} draft",
                                lambda s, o, f, d: [args.memesh, "--home", draft_home,
                                                    "-c", "quit"]))
        for run in range(args.startup_runs):
            for tool in startup:
                seconds, rss, status, errors = measure(tool.command(None, None, None, scratch))
                if status != 0 and not tool.error:
                    tool.error = f"exit {status}: {errors.strip()[-200:]}"
                tool.times.append(seconds)
                tool.memory.append(rss)
        section = table("start-up", startup, startup[0])
        print(section, flush=True)
        report.append(section)

    with open(os.path.join(args.out, "results.md"), "w") as handle:
        handle.write("\n".join(report))
    print(f"report: {os.path.join(args.out, 'results.md')}; outputs to look at: {args.out}")


if __name__ == "__main__":
    main()
