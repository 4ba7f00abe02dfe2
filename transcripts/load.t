# load PATH (alias album): PNG and JPEG by content (EXIF orientation applied); clear errors
# otherwise; quoting. A JPEG shares as a JPEG unless --format says otherwise.
> load images/cat.png
cat.png: 160×120 PNG
> album images/clear.png
clear.png: 90×60 PNG
> info
image: images/clear.png
width: 90
height: 60
format: png
top:
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
> load images/missing.png
error: cannot load 'images/missing.png': no such file
> load images/notes.txt
error: cannot load 'images/notes.txt': not a PNG, JPEG, WebP, GIF, HEIC or AVIF file (starts with "<!DO")
> load images
error: cannot load 'images': is a directory
> load
error: load: needs a PATH (usage: load PATH)
> load 'images/no such file.png'
error: cannot load 'images/no such file.png': no such file
> load images/cat.png images/square.png
error: load: takes one PATH (quote names with spaces) (usage: load PATH)
> load "images/cat.png
error: unterminated double quote (close it with ")
> load images/photo.jpg
photo.jpg: 32×24 JPEG
> load images/rotated.jpg
rotated.jpg: 24×16 JPEG (turned upright: EXIF orientation 6)
> info
image: images/rotated.jpg
width: 24
height: 16
format: jpeg
top:
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
> share
saved meme 1
> browse --tsv
1			Anton	24	16	[date]	[path]
> show 1
meme: 1
top:
bottom:
font: Anton
crop: off
size: 24×16 jpeg
source: rotated.jpg
created: [date]
modified: [date]
file: [path]
