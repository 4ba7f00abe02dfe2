# share saves to the store first, then hands the meme on. A missing display or tool is an error
# after the save.
> share
error: share: no picture yet; 'load PATH' one first
> load images/cat.png
cat.png: 160×120 PNG
> caption shared | to a file
> share file out.jpg
saved meme 1
wrote out.jpg
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
> load images/cat.png
cat.png: 160×120 PNG
> share file out.png --format jpeg
saved meme 2
wrote out.png
> load images/square.png
square.png: 64×64 PNG
> share clipboard
saved meme 3
error: share: saved meme 3, but there is no clipboard here (neither WAYLAND_DISPLAY nor DISPLAY is set)
> load images/square.png
square.png: 64×64 PNG
> share open
saved meme 4
error: share: saved meme 4, but there is no display to open it on (DISPLAY is not set)
> load images/square.png
square.png: 64×64 PNG
> share file /dev/null
error: share: cannot write '/dev/null': is a device; memesh only writes regular files
> share file no-such-folder/x.png
error: share: cannot write 'no-such-folder/x.png': no such folder 'no-such-folder'
> share file images/cat.png/x.png
error: share: cannot write 'images/cat.png/x.png': 'images/cat.png' is not a folder
> share file ''
error: share: cannot write '': no file name given
> share file meme.bmp
error: share: cannot write 'meme.bmp': memesh writes PNG, JPEG, WebP or GIF, not BMP (name it .png or .jpg, or add --format png)
> share printer
error: share: unknown target 'printer' (file PATH, clipboard or open)
> share --format bmp
error: share: 'bmp' is not a format (png, jpeg, webp or gif)
> browse
ID  TOP     BOTTOM     FONT   SIZE     CREATED
 1  shared  to a file  Anton  160×120  [date]
 2                     Anton  160×120  [date]
 3                     Anton  64×64    [date]
 4                     Anton  64×64    [date]
