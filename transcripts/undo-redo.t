# undo and redo walk the editor's history; history lists the steps.
> undo
error: undo: nothing to undo
> load images/cat.png
cat.png: 160×120 PNG
> top one
> top two
> font Oswald
font: Oswald
> crop 1:1
crop: 1:1 (120×120 at 20,0)
> history
  1  start
  2  load cat.png
  3  top "one"
  4  top "two"
  5  font Oswald
* 6  crop 1:1
> undo
undid crop 1:1
> undo
undid font Oswald
> history
  1  start
  2  load cat.png
  3  top "one"
* 4  top "two"
  5  font Oswald (undone)
  6  crop 1:1 (undone)
> info
image: images/cat.png
width: 160
height: 120
format: png
top: two
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
> redo
redid font Oswald
> info
image: images/cat.png
width: 160
height: 120
format: png
top: two
bottom:
font: Oswald
crop: off
unsaved changes: yes
editing:
> top three
> redo
error: redo: nothing to redo
> history
  1  start
  2  load cat.png
  3  top "one"
  4  top "two"
  5  font Oswald
* 6  top "three"
