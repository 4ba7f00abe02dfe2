# Recipes embedded by older and newer memesh versions. meme-v1.png was written by memesh 0.1
# (recipe version 1: top, bottom, font, crop) from cat.png with 'top don't do it' and 'crop 1:1'.
# Its recipe still reopens the meme it came from for editing.
> load images/cat.png
cat.png: 160×120 PNG
> top don't do it
> crop 1:1
crop: 1:1 (120×120 at 20,0)
> share
saved meme 1
> load images/meme-v1.png
'images/meme-v1.png' was made by memesh (top "don't do it", bottom "")
editing meme 1; 'share' updates it in place
> info
image: cat.png
width: 160
height: 120
format: png
top: don't do it
bottom:
font: Anton
crop: 1:1
unsaved changes: no
editing: 1
# A recipe of a later version than this memesh reads: the picture loads as a plain picture.
> cancel
draft discarded
> load images/meme-v3.png
note: 'images/meme-v3.png' was made by a newer memesh (recipe version 3; this one reads up to 2); loading it as a plain picture
meme-v3.png: 64×64 PNG
> info
image: images/meme-v3.png
width: 64
height: 64
format: png
top:
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
