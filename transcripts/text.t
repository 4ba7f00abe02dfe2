# Text boxes: a new draft has MemeMe's two, top and bottom; 'text' lists, adds, changes and
# removes them. Every change is one undo step.
> help text
usage: text [add TEXT | N TEXT | rm N]
list, add, change and remove the text boxes
Boxes are numbered from 1 in drawing order; a new draft's boxes 1 and 2 are the top and bottom captions. 'text' lists each box: its place (a rectangle in percent of the picture as shown), its text and its style. 'text add TEXT' adds a box in the middle; a final 'at X Y W H' (10% 5% 80% 20%, or pixels) or 'at top', 'at middle', 'at bottom', 'at left', 'at right' places it. 'text N TEXT' sets box N's text (the rest of the line as typed, as 'top' reads it). A text that starts with a setting's name is that setting when the rest reads as its value: one word (a place or number after 'at', anything after 'font'); otherwise it is the text: text 2 at last, text 2 color me surprised. Quote a text to be sure: text 2 'case closed'. Settings: 'text N at X Y W H|PLACE', 'text N align left|center|right', 'text N color NAME|#RRGGBB', 'text N outline NAME|#RRGGBB|none|auto' (auto: black around light text, white around dark), 'text N font NAME|default' (default: the meme's font), 'text N angle DEG' (clockwise), 'text N case upper|as-typed', 'text N during START-STOP|all' (the part of an animation it shows in, as fractions: 0.5-1). 'text N' shows box N; 'text rm N' removes it. Every change is one undo step.
> text
1  top  TOP (placeholder, not drawn)
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
2  bottom  BOTTOM (placeholder, not drawn)
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> load images/cat.png
cat.png: 160×120 PNG
> top don't do it
> text
1  top (3.8% 3.3% 92.5% 27.5%)  "don't do it"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
2  bottom (3.8% 69.2% 92.5% 27.5%)  BOTTOM (placeholder, not drawn)
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
# Add a box: in the middle, or placed at a rectangle (percent or pixels) or a named place.
> text add look at me
added box 3
3  middle (3.8% 35.8% 92.5% 27.5%)  "look at me"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text add it's "quoted" at 10% 5% 80% 20%
added box 4
4  10% 5% 80% 20%  "it's "quoted""
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text add in the corner at right
added box 5
5  right (51.9% 3.3% 44.4% 93.3%)  "in the corner"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text add over the top
added box 6
6  middle (3.8% 35.8% 92.5% 27.5%)  "over the top"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text 3 at 16 12 80 30
3  10% 10% 50% 25%  "look at me"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text 3 at 10% 60% 45% 20%
3  10% 60% 45% 20%  "look at me"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text 4 align left
4  10% 5% 80% 20%  "it's "quoted""
   left, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text 4 color yellow
4  10% 5% 80% 20%  "it's "quoted""
   left, upper, yellow, outline black (auto), font Anton (the meme's), angle 0°
> text 4 outline #102030
4  10% 5% 80% 20%  "it's "quoted""
   left, upper, yellow, outline #102030, font Anton (the meme's), angle 0°
> text 4 font Oswald
4  10% 5% 80% 20%  "it's "quoted""
   left, upper, yellow, outline #102030, font Oswald, angle 0°
> text 4 angle -12.5
4  10% 5% 80% 20%  "it's "quoted""
   left, upper, yellow, outline #102030, font Oswald, angle -12.5°
> text 4 case as-typed
4  10% 5% 80% 20%  "it's "quoted""
   left, as-typed, yellow, outline #102030, font Oswald, angle -12.5°
> text 4 during 0.5-1
4  10% 5% 80% 20%  "it's "quoted""
   left, as-typed, yellow, outline #102030, font Oswald, angle -12.5°, during 0.5-1
> text 4 during all
4  10% 5% 80% 20%  "it's "quoted""
   left, as-typed, yellow, outline #102030, font Oswald, angle -12.5°
> text 4 during 1-0.5
error: text 4 during: '1-0.5' is not a time range (START-STOP, fractions of the animation from 0 to 1 with START before STOP, e.g. 0.5-1, or 'all')
> text 4
4  10% 5% 80% 20%  "it's "quoted""
   left, as-typed, yellow, outline #102030, font Oswald, angle -12.5°
# The rest of the line is the text, apostrophes included. A text that starts with a setting's
# name is that setting when the rest reads as its value (one word; a place or a number after
# 'at'), else it is the text; quotes make it the text.
> text 2 it's friday
> text 6 'at last'
> text 6 at last
> text 6
6  middle (3.8% 35.8% 92.5% 27.5%)  "at last"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text 6 color me surprised
> text 6
6  middle (3.8% 35.8% 92.5% 27.5%)  "color me surprised"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text 6 "font" of wisdom
> info
image: images/cat.png
width: 160
height: 120
format: png
top: don't do it
bottom: it's friday
font: Anton
crop: off
unsaved changes: yes
editing:
box 1: top (3.8% 3.3% 92.5% 27.5%); center, upper, white, outline black (auto), font Anton (the meme's), angle 0°; don't do it
box 2: bottom (3.8% 69.2% 92.5% 27.5%); center, upper, white, outline black (auto), font Anton (the meme's), angle 0°; it's friday
box 3: 10% 60% 45% 20%; center, upper, white, outline black (auto), font Anton (the meme's), angle 0°; look at me
box 4: 10% 5% 80% 20%; left, as-typed, yellow, outline #102030, font Oswald, angle -12.5°; it's "quoted"
box 5: right (51.9% 3.3% 44.4% 93.3%); center, upper, white, outline black (auto), font Anton (the meme's), angle 0°; in the corner
box 6: middle (3.8% 35.8% 92.5% 27.5%); center, upper, white, outline black (auto), font Anton (the meme's), angle 0°; font of wisdom
> history
  1  start
  2  load cat.png
  3  top "don't do it"
  4  text add "look at me"
  5  text add "it's "quoted"" at 10% 5% 80% 20%
  6  text add "in the corner" at right
  7  text add "over the top"
  8  text 3 at 16 12 80 30
  9  text 3 at 10% 60% 45% 20%
  10  text 4 align left
  11  text 4 color yellow
  12  text 4 outline #102030
  13  text 4 font Oswald
  14  text 4 angle -12.5
  15  text 4 case as-typed
  16  text 4 during 0.5-1
  17  text 4 during all
  18  text 2 "it's friday"
  19  text 6 "at last"
  20  text 6 "color me surprised"
* 21  text 6 "font of wisdom"
# Removing a box moves the ones after it up; undo brings it back.
> text rm 5
removed box 5 "in the corner"; the boxes after it moved up one
> text
1  top (3.8% 3.3% 92.5% 27.5%)  "don't do it"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
2  bottom (3.8% 69.2% 92.5% 27.5%)  "it's friday"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
3  10% 60% 45% 20%  "look at me"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
4  10% 5% 80% 20%  "it's "quoted""
   left, as-typed, yellow, outline #102030, font Oswald, angle -12.5°
5  middle (3.8% 35.8% 92.5% 27.5%)  "font of wisdom"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> undo
undid text rm 5
> text 5
5  right (51.9% 3.3% 44.4% 93.3%)  "in the corner"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> redo
redid text rm 5
> undo
undid text rm 5
# Back to MemeMe's two captions: info lists no boxes.
> text rm 6
removed box 6 "font of wisdom"
> text rm 5
removed box 5 "in the corner"
> text rm 4
removed box 4 "it's "quoted""
> text rm 3
removed box 3 "look at me"
> info
image: images/cat.png
width: 160
height: 120
format: png
top: don't do it
bottom: it's friday
font: Anton
crop: off
unsaved changes: yes
editing:
# Errors: one line each, nothing changed.
> text 9 hello
error: text: no box 9 (boxes are 1 and 2; 'text' lists them)
> text 0 hello
error: text: no box 0 (boxes are 1 and 2; 'text' lists them)
> text two hello
error: text: 'two' is not a box number or 'add' or 'rm' (boxes are 1 and 2; 'text' lists them)
> text 3 hello
error: text: no box 3 (boxes are 1 and 2; 'text' lists them)
> text 2 color chartreuse
error: text 2 color: 'chartreuse' is not a colour name (white, black, red, yellow…) or #RRGGBB
> text 2 outline
error: text 2 outline: needs a value (usage: text N outline NAME | #RRGGBB | none | auto)
> text 2 at 10% 5%
error: text 2 at: '10% 5%' is not X Y W H (10% 5% 80% 20%, or pixels) or top, middle, bottom, left, right
> text 2 at 10% 5% 0% 20%
error: text 2 at: '10% 5% 0% 20%' is not a rectangle with a positive width and height that reaches the picture
> text 2 at 10% 5% 80% x
error: text 2 at: 'x' is not a percentage like 10% or a number of pixels
> text 2 align justify
error: text 2 align: 'justify' is not left, center or right
> text 2 angle 1000
error: text 2 angle: '1000' is not degrees from -360 to 360 (clockwise)
> text 2 case lower
error: text 2 case: 'lower' is not upper or as-typed
> text 2 font NoSuchFont
error: text 2 font: unknown font 'NoSuchFont' (available: Anton, BebasNeue, DejaVuSans-Bold, Oswald; 'fonts --installed' lists the system's)
> text rm
error: text: 'text rm' needs a box number (usage: text [add TEXT | N TEXT | rm N])
> text rm 1 2
error: text: unexpected '2' (usage: text [add TEXT | N TEXT | rm N])
> text add
error: text: 'text add' needs the box's TEXT (usage: text [add TEXT | N TEXT | rm N])
> text
1  top (3.8% 3.3% 92.5% 27.5%)  "don't do it"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
2  bottom (3.8% 69.2% 92.5% 27.5%)  "it's friday"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
# Pixels need a picture to measure.
> new
new draft: top TOP, bottom BOTTOM (placeholders until you type captions)
> text 1 at 10 10 50 50
error: text 1 at: '10' is not a percentage like 10%: pixels need a picture ('load PATH' one first)
> text 1 at top
1  top  TOP (placeholder, not drawn)
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> text rm 1
removed box 1; the boxes after it moved up one
> text rm 1
removed box 1
> text
no text boxes; 'text add TEXT' adds one
> text 1 hello
error: text: no box 1 (there are no boxes; 'text add TEXT' adds one)
> top back again
> text
1  top  "back again"
   center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
