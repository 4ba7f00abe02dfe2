# info prints the editor state as key: value lines (a stable contract for scripts).
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
> load images/square.png
square.png: 64×64 PNG
> caption a | b
> font Oswald
font: Oswald
> crop 2 2 30 20
crop: 2 2 30 20 (30×20 at 2,2)
> info
image: images/square.png
width: 64
height: 64
format: png
top: a
bottom: b
font: Oswald
crop: 2 2 30 20
unsaved changes: yes
editing:
