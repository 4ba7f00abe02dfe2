# cancel discards the draft and shows the sent memes.
> load images/cat.png
cat.png: 160×120 PNG
> top never mind
> cancel
draft discarded ('undo' brings it back)
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
> cancel
nothing to discard
