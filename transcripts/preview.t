# preview describes the meme where pictures cannot be drawn; --explain says how each caption was
# laid out; --out FILE writes the picture without sharing it (--force: this transcript runs again in place).
> preview
error: preview: no picture yet; 'load PATH' one first
> load images/cat.png
cat.png: 160×120 PNG
> preview
preview: cat.png 160×120, font Anton
top: TOP (placeholder, not drawn)
bottom: BOTTOM (placeholder, not drawn)
(no terminal graphics here; 'preview --out FILE' writes the picture)
> top straße
> preview --explain
preview: cat.png 160×120, font Anton
top: straße
bottom: BOTTOM (placeholder, not drawn)
box 1 (top): "STRASSE"
  rectangle: 6 4 148×33 px
  lines (1): "STRASSE"
  font: Anton at 18 px (largest for this box 18 px; no shrinking)
  fallback fonts: none
  missing characters: none
box 2 (bottom): (empty)
> preview --out preview-out.png --force
wrote preview-out.png (160×120)
> load preview-out.png
note: 'preview-out.png' was made by memesh (top "straße", bottom "") but its original is not in the store; captioning the captioned picture
preview-out.png: 160×120 PNG
> preview --bogus
error: preview: unknown option '--bogus' (usage: preview [--explain] [--out FILE] [--frame N] [--force])
> preview --out
error: preview: --out needs a value (usage: preview [--explain] [--out FILE] [--frame N] [--force])
> preview --out preview.bmp
error: preview: cannot write 'preview.bmp': memesh writes PNG, JPEG, WebP or GIF, not BMP (name it .png or .jpg)
