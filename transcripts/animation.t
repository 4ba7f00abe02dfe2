# Animated GIF and WebP: load keeps every frame (info says how many, how long, how often), the
# captions go on every frame, share writes the input's format (GIF or animated WebP) with its
# timing, loop count and recipe, and load reopens it. A still picture shared as GIF is one frame.
> load images/pan.gif
pan.gif: 96×72 GIF, 8 frames, 1.27 s, loops forever
> info
image: images/pan.gif
width: 96
height: 72
format: gif
top:
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
frames: 8
duration: 1.27 s
loop: forever
> caption moving | picture
> preview
preview: pan.gif 96×72, font Anton
top: moving
bottom: picture
animation: 8 frames, 1.27 s, loops forever
(no terminal graphics here; 'preview --out FILE' writes the picture)
> preview --frame 9
error: preview: there is no frame 9 (the animation has 8)
> preview --frame 0
error: preview: --frame takes a frame number from 1, not '0' (usage: preview [--explain] [--out FILE] [--frame N] [--force])
> share file moving.gif
saved meme 1
wrote moving.gif
> load moving.gif
'moving.gif' was made by memesh (top "moving", bottom "picture")
editing meme 1; 'share' updates it in place
> info
image: pan.gif
width: 96
height: 72
format: gif
top: moving
bottom: picture
font: Anton
crop: off
unsaved changes: no
editing: 1
frames: 8
duration: 1.27 s
loop: forever
> share file moving.webp
updated meme 1
wrote moving.webp
> load images/pan.webp
pan.webp: 96×72 WebP, 8 frames, 0.80 s, loops 2 times
> caption web | picture
> share file web.webp
saved meme 2
wrote web.webp
> load web.webp
'web.webp' was made by memesh (top "web", bottom "picture")
editing meme 2; 'share' updates it in place
> info
image: pan.webp
width: 96
height: 72
format: webp
top: web
bottom: picture
font: Anton
crop: off
unsaved changes: no
editing: 2
frames: 8
duration: 0.80 s
loop: 2 times
> share file web.gif
updated meme 2
wrote web.gif
> load images/cat.png
cat.png: 160×120 PNG
> caption web | picture
> share file still.gif
saved meme 3
wrote still.gif
> load still.gif
'still.gif' was made by memesh (top "web", bottom "picture")
editing meme 3; 'share' updates it in place
> info
image: cat.png
width: 160
height: 120
format: png
top: web
bottom: picture
font: Anton
crop: off
unsaved changes: no
editing: 3
> browse
ID  TOP     BOTTOM   FONT   SIZE     CREATED
 1  moving  picture  Anton  96×72    [date]
 2  web     picture  Anton  96×72    [date]
 3  web     picture  Anton  160×120  [date]
> show 1
meme: 1
top: moving
bottom: picture
font: Anton
crop: off
size: 96×72 webp
source: pan.gif
created: [date]
modified: [date]
file: [path]
# A still format chosen for the session shares an animation's first frame, and says so; a name or
# --format that asks for it says nothing.
> set format png
share writes PNG unless --format or a name says
> load images/pan.gif
pan.gif: 96×72 GIF, 8 frames, 1.27 s, loops forever
no longer editing meme 3: 'share' saves a new meme ('undo' goes back)
> share
note: 'set format png' shares the first of the animation's 8 frames, still; --format gif or webp keeps it moving
saved meme 4
> load images/pan.gif
pan.gif: 96×72 GIF, 8 frames, 1.27 s, loops forever
> share file first.png
saved meme 5
wrote first.png
> load images/pan.gif
pan.gif: 96×72 GIF, 8 frames, 1.27 s, loops forever
> share file moving-again.gif
saved meme 6
wrote moving-again.gif
