# source FILE runs a file of commands, or a transcript's inputs.
> source script.memesh
cat.png: 160×120 PNG
> info
image: images/cat.png
width: 160
height: 120
format: png
top: from
bottom: a script
font: Anton
crop: off
unsaved changes: yes
editing:
> source missing.memesh
error: source: cannot read 'missing.memesh': no such file
> source failing.memesh
error: cannot load 'images/missing.png': no such file
error: source: stopped at line 2 of 'failing.memesh'
> info
image: images/cat.png
width: 160
height: 120
format: png
top: before the failure
bottom: a script
font: Anton
crop: off
unsaved changes: yes
editing:
# Relative paths in a script are taken from the script's folder, not from where it is sourced.
> source scripts/nested.memesh
square.png: 64×64 PNG
> top
top: from a folder
> load images/cat.png
cat.png: 160×120 PNG
