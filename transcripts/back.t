# back returns to the sent memes from a meme's detail or from the editor (the draft is kept).
> load images/cat.png
cat.png: 160×120 PNG
> caption going | back
> share
saved meme 1
> show 1
meme: 1
top: going
bottom: back
font: Anton
crop: off
size: 160×120 png
source: cat.png
created: [date]
modified: [date]
file: [path]
> back
ID  TOP    BOTTOM  FONT   SIZE     CREATED
 1  going  back    Anton  160×120  [date]
> top a new draft
> back
the draft is kept; 'info' or any editor command returns to it
ID  TOP    BOTTOM  FONT   SIZE     CREATED
 1  going  back    Anton  160×120  [date]
> info
image:
width:
height:
format:
top: a new draft
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
> back
already in the sent memes
