# place N moves, resizes and turns box N with the keys while the preview follows; it needs a
# terminal that shows pictures, so a script is pointed to 'text N at X Y W H' instead.
> place 1
error: place: no picture yet; 'load PATH' one first
> load images/cat.png
cat.png: 160×120 PNG
> place 1
error: place: needs a terminal that shows pictures; 'text 1 at X Y W H' places box 1 by numbers (percent or pixels)
> place 3
error: place: no box 3 (boxes are 1 and 2; 'text' lists them)
> place
error: place: needs a box number N (usage: place N)
> place one two
error: place: takes one box number (usage: place N)
