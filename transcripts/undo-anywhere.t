# undo undoes the last thing done, whatever the view: the last editor change (new and cancel
# included) or the last delete, by when each was made; history lists both.
> load images/cat.png
cat.png: 160×120 PNG
> top first
> share
saved meme 1
> load images/square.png
square.png: 64×64 PNG
> top a draft
> delete 1
deleted meme 1 ('undo' brings it back)
> undo
restored meme 1
> undo
undid top "a draft"
> history
  1  start
* 2  load square.png
  3  top "a draft" (undone)
> top the draft
> cancel
draft discarded ('undo' brings it back)
> undo
undid cancel
> info
image: images/square.png
width: 64
height: 64
format: png
top: the draft
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
> back
the draft is kept; 'info' or any editor command returns to it
ID  TOP    BOTTOM  FONT   SIZE     CREATED
 1  first          Anton  160×120  [date]
> delete 1
deleted meme 1 ('undo' brings it back)
> history
  1  start
  2  load square.png
* 3  top "the draft"
  4  cancel (undone)
  -  delete meme 1 (in the sent memes)
> undo
restored meme 1
> undo
undid top "the draft"
