# MemeMe's main flow: first launch (an empty store opens the editor) → load → captions → share →
# sent memes → detail → back.
> info
image:
width:
height:
format:
top:
bottom:
font: Anton
crop: off
unsaved changes: no
editing:
> load images/cat.png
cat.png: 160×120 PNG
> top one does not simply
> bottom share a meme
> preview
preview: cat.png 160×120, font Anton
top: one does not simply
bottom: share a meme
(no terminal graphics here; 'preview --out FILE' writes the picture)
> share
saved meme 1
> browse
ID  TOP                  BOTTOM        FONT   SIZE     CREATED
 1  one does not simply  share a meme  Anton  160×120  [date]
> show 1
meme: 1
top: one does not simply
bottom: share a meme
font: Anton
crop: off
size: 160×120 png
source: cat.png
created: [date]
modified: [date]
file: [path]
> back
ID  TOP                  BOTTOM        FONT   SIZE     CREATED
 1  one does not simply  share a meme  Anton  160×120  [date]
> quit
