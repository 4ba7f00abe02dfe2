# A JPEG photo shared as a JPEG is spliced: only the rows of blocks under the captions are
# encoded again, the rest of the photo is carried over as it was (issue 19). preview --explain
# says so, or why a photo is encoded whole.
> load images/photo.jpg
photo.jpg: 32×24 JPEG
> caption one does not simply | splice a jpeg
> preview --explain
warning: top caption is too long: cut at the minimum size (4 px) and ended with '…'
preview: photo.jpg 32×24, font Anton
top: one does not simply
bottom: splice a jpeg
box 1 (top): "ONE DOES NOT SIMPLY"
  rectangle: 1 1 30×6 px
  lines (1): "ONE DOES NOT…"
  font: Anton at 4 px (largest for this box 4 px; no shrinking)
  cut: too long for 3 lines at the minimum size, ends with "…"
  fallback fonts: none
  missing characters: none
box 2 (bottom): "SPLICE A JPEG"
  rectangle: 1 17 30×6 px
  lines (1): "SPLICE A JPEG"
  font: Anton at 4 px (largest for this box 4 px; no shrinking)
  fallback fonts: none
  missing characters: none
jpeg: a JPEG share is spliced into the photo's own data (only the block rows the captions touch are re-encoded)
> share file spliced.jpg
warning: top caption is too long: cut at the minimum size (4 px) and ended with '…'
saved meme 1
wrote spliced.jpg
> load images/rotated.jpg
rotated.jpg: 24×16 JPEG (turned upright: EXIF orientation 6)
> bottom turned
> preview --explain
preview: rotated.jpg 24×16, font Anton
top: TOP (placeholder, not drawn)
bottom: turned
box 1 (top): (empty)
box 2 (bottom): "TURNED"
  rectangle: 1 12 22×4 px
  lines (1): "TURNED"
  font: Anton at 2 px (largest for this box 2 px; no shrinking)
  fallback fonts: none
  missing characters: none
jpeg: the whole photo is re-encoded: the photo is turned (EXIF orientation 6)
# A JPEG whose coded data libjpeg recovers from (here bytes no block claims before its end
# marker) loads with libjpeg's warning, as any damaged JPEG does, and is encoded whole: the
# splicer's index refuses what libjpeg warns about (issue 17).
> load images/damaged.jpg
warning: 'images/damaged.jpg': corrupt JPEG data: 33 extraneous bytes before marker 0xd9
damaged.jpg: 32×24 JPEG
> bottom damaged
> preview --explain
preview: damaged.jpg 32×24, font Anton
...
jpeg: the whole photo is re-encoded: the photo's coded data does not add up
> share file damaged-meme.jpg --force
saved meme 2
wrote damaged-meme.jpg
