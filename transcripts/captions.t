# top TEXT, bottom TEXT and caption TOP | BOTTOM; quoting and escapes.
> load images/cat.png
cat.png: 160×120 PNG
> top "I SEE" what you did
> bottom there\ \ two spaces
> top
top: I SEE what you did
> caption when the code | compiles
> info
image: images/cat.png
width: 160
height: 120
format: png
top: when the code
bottom: compiles
font: Anton
crop: off
unsaved changes: yes
editing:
> caption no bar here
error: caption: separate the top and bottom captions with '|' (usage: caption TOP | BOTTOM)
> caption 'a | b' | c
> info
image: images/cat.png
width: 160
height: 120
format: png
top: a | b
bottom: c
font: Anton
crop: off
unsaved changes: yes
editing:
> caption left|right
> info
image: images/cat.png
width: 160
height: 120
format: png
top: left
bottom: right
font: Anton
crop: off
unsaved changes: yes
editing:
> top ""
> info
image: images/cat.png
width: 160
height: 120
format: png
top:
bottom: right
font: Anton
crop: off
unsaved changes: yes
editing:
