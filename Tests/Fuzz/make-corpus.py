#!/usr/bin/env python3
"""Writes the seed corpus of memesh's fuzz targets into Tests/Fuzz/corpus/NAME/ (run once; the
small files it makes are committed). Needs Pillow (pip install Pillow) for the JPEGs.

    python3 Tests/Fuzz/make-corpus.py
"""
import io
import plistlib
import shutil
import struct
import sys
from datetime import datetime, timezone
from pathlib import Path

from PIL import Image

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent.parent
PNGSUITE = ROOT / "Tests/MemeMediaTests/Fixtures/pngsuite"
IMAGES = ROOT / "Tests/MemeMediaTests/Fixtures/images"


def folder(name):
    path = FUZZ / "corpus" / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def picture(width, height, mode="RGB"):
    """A small gradient with an edge, so the codecs have something to compress."""
    image = Image.new("RGB", (width, height))
    for y in range(height):
        for x in range(width):
            image.putpixel((x, y), (x * 255 // max(1, width - 1), y * 255 // max(1, height - 1),
                                    255 if x > width // 2 else 30))
    return image.convert(mode)


def tiff(orientation, little=True, extra_entries=()):
    """A TIFF header and one IFD holding the orientation tag (what EXIF's APP1 carries)."""
    order = "<" if little else ">"
    entries = [(0x0112, 3, 1, orientation)] + list(extra_entries)
    body = (b"II" if little else b"MM") + struct.pack(order + "HI", 42, 8)
    body += struct.pack(order + "H", len(entries))
    for tag, kind, count, value in entries:
        body += struct.pack(order + "HHI", tag, kind, count)
        body += struct.pack(order + "HH", value, 0) if kind == 3 else struct.pack(order + "I", value)
    return body + struct.pack(order + "I", 0)


def png_seeds():
    out = folder("png")
    # One of each color type, bit depth and interlace, palette with tRNS, gamma, text, zTXt.
    names = ["basn0g01", "basn0g16", "basn2c08", "basn2c16", "basn3p01", "basn3p08", "basn4a08",
             "basn6a16", "basi0g04", "basi3p02", "basi6a08", "tbrn2c08", "tbbn3p08", "g03n2c08",
             "ct1n0g04", "ctzn0g04", "cten0g04", "s01n3p01", "s39i3p04", "z09n2c08", "xcrn0g04",
             "xd0n2c08", "xhdn0g08"]
    for name in names:
        source = PNGSUITE / f"{name}.png"
        if source.exists():
            shutil.copy(source, out / f"{name}.png")
    # A colour profile (iCCP, inflated by memesh) and an early eXIf orientation.
    for name in ["icc-rgb.png", "png-exif-6.png"]:
        shutil.copy(IMAGES / name, out / name)
    return out


def jpeg_seeds():
    out = folder("jpeg")
    base = picture(17, 11)
    variants = {
        "baseline-420": dict(quality=75, subsampling=2),
        "baseline-444": dict(quality=90, subsampling=0),
        "baseline-422": dict(quality=60, subsampling=1),
        "progressive": dict(quality=75, progressive=True),
        "optimized": dict(quality=50, optimize=True),
    }
    for name, options in variants.items():
        base.save(out / f"{name}.jpg", "JPEG", **options)
    picture(9, 7, "L").save(out / "grayscale.jpg", "JPEG", quality=80)
    picture(8, 8, "CMYK").save(out / "cmyk.jpg", "JPEG", quality=80)
    picture(1, 1).save(out / "one-pixel.jpg", "JPEG", quality=50)
    # Restart markers every MCU row.
    buffer = io.BytesIO()
    picture(33, 17).save(buffer, "JPEG", quality=70)
    (out / "plain-33x17.jpg").write_bytes(buffer.getvalue())
    exif = Image.Exif()
    exif[0x0112] = 6
    picture(12, 8).save(out / "exif-orientation-6.jpg", "JPEG", quality=70, exif=exif.tobytes())
    # A memesh recipe in a COM segment, as memesh writes it.
    recipe = (b'{"bottom":"BOTTOM","crop":"off","font":"Anton","originalSHA256":"'
              + b"a" * 64 + b'","top":"TOP"}')
    data = (out / "baseline-420.jpg").read_bytes()
    comment = b"\xff\xfe" + struct.pack(">H", len(recipe) + 2) + recipe
    (out / "recipe-comment.jpg").write_bytes(data[:2] + comment + data[2:])
    # Truncated: libjpeg warns and fills grey.
    (out / "truncated.jpg").write_bytes(data[: len(data) * 2 // 3])
    # Colour profiles in one APP2 marker and spread over two.
    for name in ["icc-rgb.jpg", "icc-large.jpg"]:
        shutil.copy(IMAGES / name, out / name)
    return out


def exif_seeds():
    out = folder("exif")
    for orientation in (1, 3, 6, 8):
        (out / f"little-{orientation}.tiff").write_bytes(tiff(orientation))
    (out / "big-6.tiff").write_bytes(tiff(6, little=False))
    # Orientation after another tag, and a LONG tag pointing past the end.
    (out / "two-entries.tiff").write_bytes(
        tiff(5, extra_entries=[(0x010F, 4, 1, 0xFFFF)]))
    (out / "short.tiff").write_bytes(b"II*\x00")


def store_seeds():
    out = folder("store-index")
    date = datetime(2026, 11, 20, 9, 30, tzinfo=timezone.utc)

    def meme(identifier, top, bottom, crop="off", fmt="jpeg"):
        return {"id": identifier, "top": top, "bottom": bottom, "font": "Anton", "crop": crop,
                "created": date, "modified": date, "width": 1200, "height": 900, "format": fmt,
                "sourceName": f"photo {identifier}.jpg", "originalSHA256": "b" * 64,
                "originalFile": f"{identifier}/original.jpg",
                "memeFile": f"{identifier}/meme.png", "thumbnailFile": f"{identifier}/thumb.png"}

    indexes = {
        "empty": {"version": 1, "nextID": 1, "memes": [], "trash": []},
        "two-memes": {"version": 1, "nextID": 3,
                      "memes": [meme(1, "TOP", "BOTTOM"), meme(2, "I SEE", "", "1:1", "png")],
                      "trash": []},
        "trash": {"version": 1, "nextID": 4, "memes": [meme(1, "ONE", "TWO", "10 20 300 200")],
                  "trash": [{"meme": meme(3, "GONE", ""), "deleted": date}]},
        "escapes": {"version": 1, "nextID": 3,
                    "memes": [meme(1, "@ESC@[31mRED@ESC@[0m", "\u202eevil\u202c"),
                              meme(2, "../../etc", "tab\there")], "trash": []},
    }
    for name, index in indexes.items():
        # XML cannot carry ESC; plistlib refuses it, so it goes in raw, as a hostile file would.
        xml = plistlib.dumps(index, fmt=plistlib.FMT_XML).replace(b"@ESC@", b"\x1b")
        (out / f"{name}.plist").write_bytes(xml)


def draft_seeds():
    out = folder("draft")

    def step(label, top, bottom, crop="off", sha=None, editing=None):
        value = {"label": label, "top": top, "bottom": bottom, "font": "Anton", "crop": crop}
        if sha:
            value["sourcePath"] = "/home/user/cat.jpg"
            value["sourceSHA256"] = sha
        if editing:
            value["editingID"] = editing
        return value

    drafts = {
        "one-step": {"version": 1, "current": 0, "steps": [step("new", "", "")]},
        "history": {"version": 1, "current": 2, "steps": [
            step("new", "", ""), step("load cat.jpg", "", "", sha="c" * 64),
            step("top", "HELLO", "", sha="c" * 64), step("crop", "HELLO", "", "16:9", "c" * 64)]},
        "editing": {"version": 1, "current": 0,
                    "steps": [step("edit 3", "A", "B", "1 2 3 4", "d" * 64, 3)]},
    }
    for name, draft in drafts.items():
        (out / f"{name}.plist").write_bytes(plistlib.dumps(draft, fmt=plistlib.FMT_XML))


def caption_seeds():
    out = folder("caption")
    seeds = {
        "plain": "ONE DOES NOT SIMPLY\0WALK INTO MORDOR",
        "lower": "straße ﬁne\0",
        "long-word": "A" * 120 + "\0" + "supercalifragilistic " * 6,
        "emoji": "😀 cats 🐈‍⬛\0👍🏽",
        "rtl": "שלום עולם\0مرحبا بالعالم",
        "cjk-devanagari": "日本語のテキスト\0हिन्दी क्षि",
        "controls": "tab\there\nnew\x1b[31m red \u202e over\0\x07\x00bell",
        "marks": "e\u0301\u0301\u0301 z\u0335\u0336\0",
    }
    for name, text in seeds.items():
        (out / f"{name}.txt").write_bytes(text.encode("utf-8"))
    (out / "invalid-utf8.txt").write_bytes(b"\xff\xfe bad \xc3\x28 \xed\xa0\x80\0\xf4\x90\x80\x80")


def main():
    if not PNGSUITE.is_dir():
        sys.exit(f"error: {PNGSUITE} is missing")
    png_seeds()
    jpeg_seeds()
    exif_seeds()
    store_seeds()
    draft_seeds()
    caption_seeds()
    for path in sorted((FUZZ / "corpus").iterdir()):
        files = list(path.iterdir())
        print(f"{path.name}: {len(files)} files, {sum(f.stat().st_size for f in files)} bytes")


if __name__ == "__main__":
    main()
