# WebP and GIF in, WebP out: a WebP photo shares as a WebP, a still GIF as a PNG (animation.t
# has animated GIFs and WebPs); --format webp and a .webp name write lossy WebP, --lossless a lossless one; the
# recipe rides in the WebP (an XMP chunk), so load reopens the meme for editing.
> load images/photo.webp
photo.webp: 32×24 WebP
> top web picture
> share file .
saved meme 1
wrote ./meme.webp
> load meme.webp
'meme.webp' was made by memesh (top "web picture", bottom "")
editing meme 1; 'share' updates it in place
> load images/cat.gif
cat.gif: 160×120 GIF
no longer editing meme 1: 'share' saves a new meme ('undo' goes back)
> info
image: images/cat.gif
width: 160
height: 120
format: gif
top: web picture
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
> bottom from a gif
> share file .
saved meme 2
wrote ./meme.png
> edit 2
editing meme 2; 'share' updates it in place
> bottom from a gif, edited
> share
updated meme 2
> load images/cat.png
cat.png: 160×120 PNG
> share file cat.bmp
error: share: cannot write 'cat.bmp': memesh writes PNG, JPEG, WebP or GIF, not BMP (name it .png or .jpg, or add --format png)
> share file cat.png --lossless
error: share: --lossless is for WebP; a PNG is written as it always is (add --format webp)
> share file sharp --format webp --lossless
saved meme 3
wrote sharp
> load sharp
'sharp' was made by memesh (top "", bottom "")
editing meme 3; 'share' updates it in place
> info
image: cat.png
width: 160
height: 120
format: png
top:
bottom:
font: Anton
crop: off
unsaved changes: no
editing: 3
