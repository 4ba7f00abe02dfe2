# crop X Y W H, crop W:H, crop off.
> crop 16:9
crop: 16:9
> load images/cat.png
cat.png: 160×120 PNG
> crop 16:9
crop: 16:9 (160×90 at 0,15)
> crop 10 10 50 40
crop: 10 10 50 40 (50×40 at 10,10)
> crop 100 100 200 200
error: crop: 200×200 at 100,100 does not fit in the 160×120 picture
> crop 1:0
error: crop: '1:0' is not an aspect ratio like 16:9 (usage: crop X Y W H | crop W:H | crop off)
> crop a b c d
error: crop: 'a' is not a whole number of pixels (usage: crop X Y W H | crop W:H | crop off)
> crop 1 2 3
error: crop: expected 1 or 4 values (usage: crop X Y W H | crop W:H | crop off)
> crop off
crop: off (160×120)
> crop
crop: off
> info
image: images/cat.png
width: 160
height: 120
format: png
top:
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
