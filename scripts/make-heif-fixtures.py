#!/usr/bin/python3
"""Makes the small HEIC/AVIF fixtures in Tests/MemeMediaTests/Fixtures/heif/ and the reference
pixels libheif's own decoder gives for them, the seeds of the heif fuzz target in
Tests/Fuzz/corpus/heif/ and transcripts/images/phone.heic and cat.avif (run once; the results are committed, the tests never run this).

Needs Debian's libheif-examples (heif-enc, heif-convert, heif-info), libavif-bin (avifenc) and
python3-pil; run with Debian's /usr/bin/python3.

Debian 12's heif-enc (libheif 1.15) writes one plain image per file: no grid, no irot/imir
transform (from a JPEG with EXIF orientation 6 it keeps the EXIF and leaves the pixels
unrotated). Phones write grids of tiles, with irot/imir and an EXIF orientation that says the
same again. So this script lets heif-enc and avifenc encode the pictures or tiles and then
assembles those HEIF files itself from ISO/IEC 23008-12 (HEIF) and ISO/IEC 14496-12 (ISOBMFF)
boxes: ftyp; meta with hdlr, pitm, iinf/infe, iloc, idat, iref (dimg, cdsc) and iprp (ipco
with hvcC/av1C, ispe, irot, imir, colr; ipma); mdat.

Every assembled file is read back by heif-info and decoded by heif-convert; what heif-convert
writes is checked (size, quadrant colours, alpha) and kept as the reference the Swift tests
compare memesh's pixels with:
  reference/NAME.png      8-bit RGB or RGBA, exactly as heif-convert wrote it
  reference/NAME.rgba16   for 10-bit files: width, height (big-endian 32-bit) then every
                          sample as heif-convert's 16-bit PNG had it, shifted back to 10 bits
                          (big-endian 16-bit R, G, B, A = 1023 when opaque)

Usage: /usr/bin/python3 scripts/make-heif-fixtures.py [OUTPUT_DIR]
       /usr/bin/python3 scripts/make-heif-fixtures.py --phone-photo IN.jpg OUT.heic
         (a big photo as a phone's HEIC: 512×512 tiles in a grid, for `make bench`)
"""

import io
import os
import struct
import subprocess
import sys
import shutil
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
DEFAULT_OUT = os.path.join(ROOT, "Tests", "MemeMediaTests", "Fixtures", "heif")
CAT = os.path.join(ROOT, "transcripts", "images", "cat.png")
CLEAR = os.path.join(ROOT, "transcripts", "images", "clear.png")
EXIF_6_JPEG = os.path.join(ROOT, "Tests", "MemeMediaTests", "Fixtures", "images", "exif-6.jpg")
ICC_JPEG = os.path.join(ROOT, "Tests", "MemeMediaTests", "Fixtures", "images", "icc-rgb.jpg")

SCRATCH = tempfile.mkdtemp(prefix="memesh-heif-")

# The quadrant pattern of scripts/make-image-fixtures.py, so a wrong turn shows.
RED, GREEN, BLUE, YELLOW = (220, 30, 30), (30, 200, 60), (40, 60, 220), (240, 220, 40)


def quadrants(width, height):
    """Red, green (top), blue, yellow (bottom), left to right."""
    image = Image.new("RGB", (width, height))
    colours = (RED, GREEN, BLUE, YELLOW)
    for y in range(height):
        for x in range(width):
            image.putpixel((x, y), colours[(x >= width // 2) + 2 * (y >= height // 2)])
    return image


def close(a, b, tolerance=40):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def check_quadrants(image, name):
    width, height = image.size
    points = [(width // 4, height // 4), (width * 3 // 4, height // 4),
              (width // 4, height * 3 // 4), (width * 3 // 4, height * 3 // 4)]
    rgb = image.convert("RGB")
    for point, colour in zip(points, (RED, GREEN, BLUE, YELLOW)):
        assert close(rgb.getpixel(point), colour), (name, point, rgb.getpixel(point), colour)


def run(*arguments):
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL)


# MARK: - Reading ISOBMFF


def boxes(data, start=0, end=None):
    """(type, payload start, box end) of each box in data[start:end]."""
    end = len(data) if end is None else end
    while start < end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[start + 8:start + 16])[0]
            header = 16
        elif size == 0:
            size = end - start
        yield kind.decode("latin-1"), start + header, start + size
        start += size


def child(data, start, end, kind):
    for found, payload, box_end in boxes(data, start, end):
        if found == kind:
            return payload, box_end
    raise ValueError(f"no {kind} box")


def encoded_picture(data):
    """The primary item of a one-picture file heif-enc or avifenc wrote: its coded bytes and
    its decoder configuration box (hvcC or av1C), pixi and colr properties, whole."""
    meta, meta_end = child(data, 0, len(data), "meta")
    meta += 4  # version and flags
    pitm, _ = child(data, meta, meta_end, "pitm")
    primary = struct.unpack(">H", data[pitm + 4:pitm + 6])[0]
    # iloc: every item's extents (heif-enc and avifenc write version 0, offsets in the file).
    iloc, _ = child(data, meta, meta_end, "iloc")
    version = data[iloc]
    sizes = struct.unpack(">H", data[iloc + 4:iloc + 6])[0]
    offset_size, length_size, base_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15
    index_size = sizes & 15 if version in (1, 2) else 0
    position = iloc + 6

    def number(size):
        nonlocal position
        value = int.from_bytes(data[position:position + size], "big") if size else 0
        position += size
        return value

    count = number(2 if version < 2 else 4)
    extents = {}
    for _ in range(count):
        item = number(2 if version < 2 else 4)
        if version in (1, 2):
            # heif-enc puts a picture under 64 pixels on a side in a 1×1 grid in idat.
            assert number(2) & 15 == 0, "construction method: make pictures at least 64×64"
        number(2)  # data reference index
        base = number(base_size)
        parts = []
        for _ in range(number(2)):
            number(index_size)
            offset, length = number(offset_size), number(length_size)
            parts.append(data[base + offset:base + offset + length])
        extents[item] = b"".join(parts)
    # The properties associated with the primary item.
    iprp, iprp_end = child(data, meta, meta_end, "iprp")
    ipco, ipco_end = child(data, iprp, iprp_end, "ipco")
    properties = [data[payload - 8:box_end] for _, payload, box_end in boxes(data, ipco, ipco_end)]
    ipma, _ = child(data, iprp, iprp_end, "ipma")
    flags = int.from_bytes(data[ipma + 1:ipma + 4], "big")
    ipma_version = data[ipma]
    position = ipma + 4
    associated = []
    for _ in range(number(4)):
        item = number(2 if ipma_version < 1 else 4)
        for _ in range(number(1)):
            entry = number(2 if flags & 1 else 1)
            index = entry & (0x7FFF if flags & 1 else 0x7F)
            if item == primary and index:
                associated.append(properties[index - 1])
    wanted = {box[4:8].decode("latin-1"): box for box in associated}
    configuration = wanted.get("hvcC") or wanted["av1C"]
    return {
        "data": extents[primary],
        "type": "hvc1" if "hvcC" in wanted else "av01",
        "config": configuration,
        "extra": [wanted[kind] for kind in ("pixi", "colr") if kind in wanted],
    }


# MARK: - Writing ISOBMFF


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode("latin-1")) + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", (version << 24) | flags) + payload)


def ispe(width, height):
    return full_box("ispe", 0, 0, struct.pack(">II", width, height))


def irot(quarter_turns_counterclockwise):
    return box("irot", bytes([quarter_turns_counterclockwise & 3]))


def imir(axis):
    return box("imir", bytes([axis & 1]))


class Item:
    """One HEIF item: its type, bytes, properties (box, essential) and whether it is hidden."""

    def __init__(self, kind, data, properties=(), hidden=False, in_idat=False):
        self.kind, self.data, self.properties = kind, data, list(properties)
        self.hidden, self.in_idat = hidden, in_idat
        self.id = 0


def assemble(brand, items, primary, references=()):
    """A HEIF file with `items` (ids given in order from 1); `references` are
    (type, from item, [to items])."""
    for number, item in enumerate(items, start=1):
        item.id = number
    compatible = [b"mif1", brand.encode(), b"miaf"]
    ftyp = box("ftyp", brand.encode() + struct.pack(">I", 0) + b"".join(compatible))
    hdlr = full_box("hdlr", 0, 0, struct.pack(">I4s12s", 0, b"pict", bytes(12)) + b"\0")
    pitm = full_box("pitm", 0, 0, struct.pack(">H", primary.id))
    infe = b"".join(
        full_box("infe", 2, 1 if item.hidden else 0,
                 struct.pack(">HH4s", item.id, 0, item.kind.encode()) + b"\0")
        for item in items)
    iinf = full_box("iinf", 0, 0, struct.pack(">H", len(items)) + infe)
    iref = full_box("iref", 0, 0, b"".join(
        box(kind, struct.pack(">HH", source.id, len(targets))
            + b"".join(struct.pack(">H", target.id) for target in targets))
        for kind, source, targets in references)) if references else b""
    # Each distinct property box once in ipco; ipma points at them (1-based, bit 7 essential).
    unique = []
    for item in items:
        for prop, _ in item.properties:
            if prop not in unique:
                unique.append(prop)
    ipco = box("ipco", b"".join(unique))
    entries = b""
    for item in items:
        if item.properties:
            entries += struct.pack(">HB", item.id, len(item.properties)) + bytes(
                (0x80 if essential else 0) | (unique.index(prop) + 1)
                for prop, essential in item.properties)
    associated = sum(1 for item in items if item.properties)
    ipma = full_box("ipma", 0, 0, struct.pack(">I", associated) + entries)
    iprp = box("iprp", ipco + ipma)
    idat_payload = b"".join(item.data for item in items if item.in_idat)
    idat = box("idat", idat_payload) if idat_payload else b""

    def meta_with(mdat_start):
        # iloc version 1: offset and length 4 bytes, no base offset; construction method 1
        # (idat) for grid descriptions as phones write them, 0 (file offsets) for coded data.
        records = b""
        in_mdat, in_idat = mdat_start, 0
        for item in items:
            method = 1 if item.in_idat else 0
            offset = in_idat if item.in_idat else in_mdat
            records += struct.pack(">HHHHII", item.id, method, 0, 1, offset, len(item.data))
            if item.in_idat:
                in_idat += len(item.data)
            else:
                in_mdat += len(item.data)
        iloc = full_box("iloc", 1, 0, struct.pack(">BBH", 0x44, 0x00, len(items)) + records)
        return full_box("meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp + idat)

    meta_size = len(meta_with(0))
    mdat_payload = b"".join(item.data for item in items if not item.in_idat)
    meta = meta_with(len(ftyp) + meta_size + 8)
    return ftyp + meta + box("mdat", mdat_payload)


def grid_description(rows, columns, width, height):
    """The ImageGrid item data: version 0, 16-bit output size."""
    return struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)


def exif_item_data(orientation):
    """An Exif item: the 4-byte offset to the TIFF header (0), then a big-endian TIFF with one
    IFD entry, Orientation."""
    tiff = b"MM\0*" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    return struct.pack(">I", 0) + tiff


# MARK: - Encoding with Debian's tools


def encode(image, scratch, name, avif=False, extra=()):
    """heif-enc (HEVC) or avifenc (AV1, 4:2:0 as phones write) of a PIL image; the bytes."""
    source = os.path.join(scratch, name + ".png")
    image.save(source)
    output = os.path.join(scratch, name + (".avif" if avif else ".heic"))
    if avif:
        run("avifenc", "-y", "420", "-s", "6", "--min", "10", "--max", "30", *extra, source,
            output)
    else:
        run("heif-enc", "-q", "70", *extra, "-o", output, source)
    with open(output, "rb") as file:
        return file.read()


# The EXIF orientations as the HEIF transforms that show a picture upright, applied in order
# (irot turns counter-clockwise; imir axis 0 exchanges top and bottom, 1 left and right, as
# libheif 1.15 and the current HEIF text read it), with the PIL operation that undoes each
# orientation (stored = undo(upright)).
ORIENTATIONS = {
    1: ([], None),
    2: ([imir(1)], Image.Transpose.FLIP_LEFT_RIGHT),
    3: ([irot(2)], Image.Transpose.ROTATE_180),
    4: ([imir(0)], Image.Transpose.FLIP_TOP_BOTTOM),
    5: ([irot(1), imir(0)], Image.Transpose.TRANSPOSE),
    6: ([irot(3)], Image.Transpose.ROTATE_90),
    7: ([irot(3), imir(0)], Image.Transpose.TRANSVERSE),
    8: ([irot(1)], Image.Transpose.ROTATE_270),
}


def phone_photo(source, output, tile_size=512):
    """A HEIC laid out as phones write one: the photo cut into 512×512 tiles (the last row and
    column padded by repeating the edge), each encoded by heif-enc, in a grid cut to the
    photo's size. For `make bench`."""
    tiled_grid(Image.open(source).convert("RGB"), output, tile_size)


def tiled_grid(photo, output, tile_size):
    """`photo` as phones lay out a HEIC (phone_photo), in tiles of `tile_size`."""
    width, height = photo.size
    columns, rows = -(-width // tile_size), -(-height // tile_size)
    padded = Image.new("RGB", (columns * tile_size, rows * tile_size))
    padded.paste(photo, (0, 0))
    padded.paste(photo.crop((width - 1, 0, width, height)).resize(
        (columns * tile_size - width, height)), (width, 0))
    padded.paste(padded.crop((0, height - 1, columns * tile_size, height)).resize(
        (columns * tile_size, rows * tile_size - height)), (0, height))
    tiles = []
    for row in range(rows):
        for column in range(columns):
            box_ = (column * tile_size, row * tile_size, (column + 1) * tile_size,
                    (row + 1) * tile_size)
            coded = encoded_picture(encode(padded.crop(box_), SCRATCH, f"tile-{row}-{column}"))
            tiles.append(Item(coded["type"], coded["data"], [
                (coded["config"], True), (ispe(tile_size, tile_size), False)], hidden=True))
    description = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
    grid = Item("grid", description, [(ispe(width, height), False)], in_idat=True)
    with open(output, "wb") as file:
        file.write(assemble("heic", [grid] + tiles, grid, [("dimg", grid, tiles)]))
    run("heif-info", output)


def big_grid(out_dir):
    """100 tiles of 64×64 in a grid cut to 600×600, a plain gradient so the file stays small:
    many tiles for the time limit's test (checked between tiles); the tests compare memesh's
    tile-by-tile decode with libheif's whole one."""
    gradient = Image.linear_gradient("L").resize((600, 600))
    picture = Image.merge("RGB", (gradient, gradient.transpose(Image.Transpose.ROTATE_90),
                                  Image.new("L", (600, 600), 160)))
    tiled_grid(picture, os.path.join(out_dir, "grid-10x10.heic"), 64)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--phone-photo":
        phone_photo(sys.argv[2], sys.argv[3])
        return
    out_dir = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    reference_dir = os.path.join(out_dir, "reference")
    os.makedirs(reference_dir, exist_ok=True)
    scratch = SCRATCH
    cat = Image.open(CAT).convert("RGB")

    def write(name, data):
        with open(os.path.join(out_dir, name), "wb") as file:
            file.write(data)

    def decoded(name):
        """heif-convert's PNG of a fixture, checked by heif-info first."""
        path = os.path.join(out_dir, name)
        run("heif-info", path)
        png = os.path.join(scratch, name + ".png")
        run("heif-convert", "--quiet", path, png)
        return Image.open(png)

    def keep_reference(name):
        image = decoded(name)
        image.load()
        if image.mode in ("I;16", "I;16B", "RGB;16", "I") or image.info.get("bits", 8) > 8:
            raise AssertionError(f"{name}: expected 8-bit output, got {image.mode}")
        image.save(os.path.join(reference_dir, name + ".png"))
        return image

    def wrapped(name, picture, transforms=(), brand="heic", icc=None):
        """One coded picture (from encoded_picture) as the primary item, with transforms."""
        properties = [(picture["config"], True), (ispe(*picture["size"]), False)]
        properties += [(extra, False) for extra in picture["extra"]]
        if icc is not None:
            properties.append((box("colr", b"prof" + icc), False))
        properties += [(transform, True) for transform in transforms]
        image = Item(picture["type"], picture["data"], properties)
        write(name, assemble(brand, [image], image))

    # Plain files as heif-enc and avifenc write them: the cat at 160×120.
    write("cat.heic", encode(cat, scratch, "cat"))
    keep_reference("cat.heic")
    # A damaged HEVC stream: one byte of the sequence parameter set changed, so libde265
    # refuses the picture size and prints "SPS error: CB alignment" to stderr by itself.
    damaged = bytearray(open(os.path.join(out_dir, "cat.heic"), "rb").read())
    damaged[258] = 0xF9
    write("damaged-sps.heic", bytes(damaged))
    refused = subprocess.run(["heif-convert", os.path.join(out_dir, "damaged-sps.heic"),
                              os.path.join(scratch, "damaged.png")], capture_output=True,
                             text=True)
    assert refused.returncode != 0 and "SPS error" in refused.stderr, refused
    write("cat.avif", encode(cat, scratch, "cat", avif=True))
    keep_reference("cat.avif")

    # 10 bits per sample (64×48, to keep the reference small): avifenc scales the 8-bit source
    # up; the reference keeps 10 bits.
    small = cat.resize((64, 48), Image.LANCZOS)
    write("cat-10bit.avif", encode(small, scratch, "cat10", avif=True, extra=("-d", "10")))
    run("heif-info", os.path.join(out_dir, "cat-10bit.avif"))
    deep = os.path.join(scratch, "cat-10bit.png")
    run("heif-convert", "--quiet", os.path.join(out_dir, "cat-10bit.avif"), deep)
    deep_png = Image.open(deep)
    samples = rgba16_samples(deep)
    width, height = deep_png.size
    assert len(samples) == width * height * 4
    colour = [value for index, value in enumerate(samples) if index % 4 != 3]
    assert all(value % 64 == 0 for value in colour), "heif-convert shifts 10 bits left by 6"
    ten_bit = [value >> 6 if index % 4 != 3 else 1023 for index, value in enumerate(samples)]
    assert max(ten_bit) <= 1023 and any(value % 4 for value in ten_bit), "not 10-bit"
    with open(os.path.join(reference_dir, "cat-10bit.avif.rgba16"), "wb") as file:
        file.write(struct.pack(">II", width, height))
        file.write(struct.pack(f">{len(ten_bit)}H", *ten_bit))

    # Alpha: clear.png (90×60, its alpha varies) through both encoders.
    clear = Image.open(CLEAR).convert("RGBA")
    write("alpha.heic", encode(clear, scratch, "alpha"))
    assert keep_reference("alpha.heic").mode == "RGBA"
    write("alpha.avif", encode(clear, scratch, "alpha", avif=True))
    assert keep_reference("alpha.avif").mode == "RGBA"

    # Each EXIF orientation as irot/imir around one coded picture: upright it is the 96×64
    # quadrant pattern, stored it is turned the other way. (heif-enc puts anything under 64
    # pixels on a side into a 1×1 grid; 64 and up it writes a plain picture to wrap.)
    upright = quadrants(96, 64)
    for orientation, (transforms, undo) in ORIENTATIONS.items():
        stored = upright if undo is None else upright.transpose(undo)
        picture = encoded_picture(encode(stored, scratch, f"orient-{orientation}"))
        picture["size"] = stored.size
        name = f"orientation-{orientation}.heic"
        wrapped(name, picture, transforms)
        image = keep_reference(name)
        assert image.size == (96, 64), (name, image.size)
        check_quadrants(image, name)
    # The AV1 path turns the same way.
    stored = upright.transpose(ORIENTATIONS[6][1])
    picture = encoded_picture(encode(stored, scratch, "orient-6", avif=True))
    picture["size"] = stored.size
    wrapped("orientation-6.avif", picture, ORIENTATIONS[6][0], brand="avif")
    check_quadrants(keep_reference("orientation-6.avif"), "orientation-6.avif")

    # A 2×2 grid of 64×64 tiles cut to 120×100 as phones write it (the last row and column of
    # tiles reach past the picture).
    def grid_file(name, stored, size, transforms=(), orientation=None):
        tiles = []
        for row in range(2):
            for column in range(2):
                tile = stored.crop((column * 64, row * 64, column * 64 + 64, row * 64 + 64))
                coded = encoded_picture(encode(tile, scratch, f"{name}-{row}{column}"))
                tiles.append(Item(coded["type"], coded["data"], [
                    (coded["config"], True), (ispe(64, 64), False)], hidden=True))
        grid = Item("grid", grid_description(2, 2, *size),
                    [(ispe(*size), False)] + [(t, True) for t in transforms], in_idat=True)
        items = [grid] + tiles
        references = [("dimg", grid, tiles)]
        if orientation is not None:
            exif = Item("Exif", exif_item_data(orientation))
            items.append(exif)
            references.append(("cdsc", exif, [grid]))
        write(name, assemble("heic", items, grid, references))

    scene = cat.resize((171, 128), Image.LANCZOS).crop((21, 0, 149, 128))
    grid_file("grid-2x2.heic", scene, (120, 100))
    assert keep_reference("grid-2x2.heic").size == (120, 100)
    big_grid(out_dir)
    # The iPhone's portrait photo: the grid stored turned left (100×120), irot 270 (a quarter
    # turn clockwise) to show it upright, and an Exif item that says orientation 6 as well.
    # Shown once it is 120×100, the scene's columns 8…127; a decoder that also applied the
    # EXIF would turn it twice.
    grid_file("grid-irot-exif-6.heic", scene.transpose(Image.Transpose.ROTATE_90), (100, 120),
              transforms=[irot(3)], orientation=6)
    turned = keep_reference("grid-irot-exif-6.heic").convert("RGB")
    assert turned.size == (120, 100), turned.size
    expected = scene.crop((8, 0, 128, 100))
    assert mean_difference(turned, expected) < 8, mean_difference(turned, expected)
    assert mean_difference(turned, expected.transpose(Image.Transpose.ROTATE_180)) > 20

    # Bombs, small files that would cost much to decode: one 64×64 tile referenced by a 64×64
    # grid 4096 times (a 4096×4096 picture, under the pixel cap, but 4096 decoder runs), and
    # grids that claim 30000×30000 pixels (libheif reads it; memesh's pixel cap refuses it) and
    # 100000×100000 (over libheif's own limit of 32768 on a side).
    coded = encoded_picture(encode(scene.crop((0, 0, 64, 64)), scratch, "bomb-tile"))
    tile = Item(coded["type"], coded["data"], [(coded["config"], True), (ispe(64, 64), False)],
                hidden=True)

    def bomb(name, rows, columns, width, height):
        description = struct.pack(">BBBBII", 0, 1, rows - 1, columns - 1, width, height)
        grid = Item("grid", description, [(ispe(width, height), False)], in_idat=True)
        write(name, assemble("heic", [grid, tile], grid,
                             [("dimg", grid, [tile] * (rows * columns))]))
        return subprocess.run(["heif-info", os.path.join(out_dir, name)], capture_output=True,
                              text=True)

    assert bomb("bomb-4096-tiles.heic", 64, 64, 4096, 4096).returncode == 0
    assert bomb("bomb-30000x30000.heic", 1, 1, 30000, 30000).returncode == 0
    refused = bomb("bomb-100000x100000.heic", 1, 1, 100000, 100000)
    assert "Security limit exceeded" in refused.stdout + refused.stderr, refused

    # The trap as heif-enc leaves it: a JPEG with EXIF orientation 6 becomes a HEIC whose EXIF
    # still says 6 and whose pixels are stored unrotated, with no irot. HEIF readers show it as
    # stored (16×24): the EXIF orientation is never applied to a HEIF picture.
    run("heif-enc", "-q", "70", "-o", os.path.join(out_dir, "exif-6-no-irot.heic"), EXIF_6_JPEG)
    info = subprocess.run(["heif-info", os.path.join(out_dir, "exif-6-no-irot.heic")],
                          check=True, capture_output=True, text=True).stdout
    assert "Exif" in info, info
    assert keep_reference("exif-6-no-irot.heic").size == (16, 24)

    # An ICC colour profile (colr 'prof'), the one icc-rgb.jpg carries.
    profile = Image.open(ICC_JPEG).info["icc_profile"]
    picture = encoded_picture(encode(upright, scratch, "icc"))
    picture["size"] = upright.size
    wrapped("icc.heic", picture, icc=profile)
    info = subprocess.run(["heif-info", os.path.join(out_dir, "icc.heic")], check=True,
                          capture_output=True, text=True).stdout
    assert "color profile: prof" in info, info
    with open(os.path.join(reference_dir, "icc.heic.icc"), "wb") as file:
        file.write(profile)
    keep_reference("icc.heic")

    # Seeds for the fuzz target (Tests/Fuzz/corpus/heif): one of each kind (grid-2x2 for the
    # tile-by-tile decode, the others for libheif's one call); the iPhone-style
    # portrait and the 10-bit AVIF for the transcripts (transcripts/heic.t).
    if out_dir == DEFAULT_OUT:
        transcript_images = os.path.join(ROOT, "transcripts", "images")
        shutil.copy(os.path.join(out_dir, "grid-irot-exif-6.heic"),
                    os.path.join(transcript_images, "phone.heic"))
        shutil.copy(os.path.join(out_dir, "cat-10bit.avif"),
                    os.path.join(transcript_images, "cat.avif"))
        corpus = os.path.join(ROOT, "Tests", "Fuzz", "corpus", "heif")
        shutil.rmtree(corpus, ignore_errors=True)
        os.makedirs(corpus)
        for name in ("cat.heic", "cat.avif", "cat-10bit.avif", "alpha.heic", "icc.heic",
                     "grid-irot-exif-6.heic", "orientation-5.heic", "exif-6-no-irot.heic",
                     "grid-2x2.heic"):
            shutil.copy(os.path.join(out_dir, name), corpus)

    for name in sorted(os.listdir(out_dir)):
        path = os.path.join(out_dir, name)
        if os.path.isfile(path):
            print(f"{name}: {os.path.getsize(path)} bytes")


def mean_difference(a, b):
    """Mean absolute difference of two RGB pictures of one size, per sample."""
    pairs = zip(a.tobytes(), b.tobytes())
    return sum(abs(x - y) for x, y in pairs) / (a.size[0] * a.size[1] * 3)


def rgba16_samples(path):
    """Every sample of a 16-bit RGB or RGBA PNG as RGBA (alpha 65535 when there is none)."""
    image = Image.open(path)
    raw = subprocess.run(["convert", path, "-endian", "MSB", "-depth", "16", "rgba:-"], check=True,
                         capture_output=True).stdout
    count = image.size[0] * image.size[1] * 4
    assert len(raw) == count * 2, (len(raw), count)
    return list(struct.unpack(f">{count}H", raw))


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
