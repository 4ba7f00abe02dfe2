# After top, bottom and caption the rest of the line is the caption as typed: apostrophes,
# quotes inside and spaces between words stay. A caption starting with a quote is quoted words;
# a backslash takes the next character as it is.
> load images/cat.png
cat.png: 160×120 PNG
> top don't do it
> bottom it's over 9000!
> info
image: images/cat.png
width: 160
height: 120
format: png
top: don't do it
bottom: it's over 9000!
font: Anton
crop: off
unsaved changes: yes
editing:
> caption when you "finally" ship | it's friday
> info
image: images/cat.png
width: 160
height: 120
format: png
top: when you "finally" ship
bottom: it's friday
font: Anton
crop: off
unsaved changes: yes
editing:
> caption a|b|c
> top
top: a
> bottom
bottom: b|c
> caption pipes \| are text | here
> top
top: pipes | are text
> top two  spaces   kept
> top
top: two  spaces   kept
> top 'quoted' words
> top
top: quoted words
> top C:\\Users\\me
> top
top: C:\Users\me
> bottom trailing\ 
> bottom
bottom: trailing 
> caption | only the bottom
> top
top: TOP (placeholder; 'top TEXT' sets it, 'top ""' clears it)
> bottom
bottom: only the bottom
