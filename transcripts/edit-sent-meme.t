# Editing a sent meme: edit ID opens its original with its recipe; share updates it in place
# (same id, new captions, new modified date).
> load images/cat.png
cat.png: 160×120 PNG
> caption first | version
> share
saved meme 1
> edit 2
error: edit: no meme with id 2; 'browse' lists the sent memes
> edit 1
editing meme 1; 'share' updates it in place
> info
image: cat.png
width: 160
height: 120
format: png
top: first
bottom: version
font: Anton
crop: off
unsaved changes: no
editing: 1
> bottom second version
> share
updated meme 1
> browse --tsv
1	first	second version	Anton	160	120	[date]	[path]
> show 1
meme: 1
top: first
bottom: second version
font: Anton
crop: off
size: 160×120 png
source: cat.png
created: [date]
modified: [date]
file: [path]
# Another picture while editing a sent meme makes a new meme; undo goes back to editing it.
> edit 1
editing meme 1; 'share' updates it in place
> load images/square.png
square.png: 64×64 PNG
no longer editing meme 1: 'share' saves a new meme ('undo' goes back)
> undo
undid load square.png
> info
image: cat.png
width: 160
height: 120
format: png
top: first
bottom: second version
font: Anton
crop: off
unsaved changes: no
editing: 1
