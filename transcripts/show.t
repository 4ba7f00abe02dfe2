# show ID opens a meme's detail.
> show 1
error: show: no meme with id 1 (there are no sent memes yet)
> load images/cat.png
cat.png: 160×120 PNG
> caption detail | view
> share
saved meme 1
> show 1
meme: 1
top: detail
bottom: view
font: Anton
crop: off
size: 160×120 png
source: cat.png
created: [date]
modified: [date]
file: [path]
> show
meme: 1
top: detail
bottom: view
font: Anton
crop: off
size: 160×120 png
source: cat.png
created: [date]
modified: [date]
file: [path]
> show 2
error: show: no meme with id 2; 'browse' lists the sent memes
> show x
error: show: 'x' is not a meme id (ids are 1, 2, 3…)
# An empty caption is 'bottom:' with nothing after it, as in 'info'.
> load images/cat.png
cat.png: 160×120 PNG
> top only a top
> share
saved meme 2
> show 2
meme: 2
top: only a top
bottom:
font: Anton
crop: off
size: 160×120 png
source: cat.png
created: [date]
modified: [date]
file: [path]
