# Every picture memesh writes carries its recipe; loading one reopens the meme when its original
# is in the store.
> load images/cat.png
cat.png: 160×120 PNG
> caption with | a recipe
> share file shared.png --force
saved meme 1
wrote shared.png
> load shared.png
'shared.png' was made by memesh (top "with", bottom "a recipe")
editing meme 1; 'share' updates it in place
> info
image: cat.png
width: 160
height: 120
format: png
top: with
bottom: a recipe
font: Anton
crop: off
unsaved changes: no
editing: 1
# A picture of the same original with another recipe (a preview, an older version) is not
# meme 1: it starts a new draft on the original, and share saves a new meme.
> bottom only a preview
> preview --out other.png --force
wrote other.png (160×120)
> cancel
draft discarded
> load other.png
'other.png' was made by memesh (top "with", bottom "only a preview")
a new draft on meme 1's original picture; 'share' saves a new meme
> info
image: cat.png
width: 160
height: 120
format: png
top: with
bottom: only a preview
font: Anton
crop: off
unsaved changes: yes
editing:
> share
saved meme 2
> show 1
meme: 1
top: with
bottom: a recipe
...
> delete 2
deleted meme 2 ('undo' brings it back)
> delete 1
deleted meme 1 ('undo' brings it back)
> load shared.png
note: 'shared.png' was made by memesh (top "with", bottom "a recipe") but its original is not in the store; captioning the captioned picture
shared.png: 160×120 PNG
> info
image: shared.png
width: 160
height: 120
format: png
top:
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
