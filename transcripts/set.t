# set shows and changes the session's defaults: the font new drafts start in and the format
# share writes when neither --format nor the file's name says. They change no draft and leave
# nothing to undo; the start-up file ($XDG_CONFIG_HOME/memesh/memeshrc) keeps them for terminal
# sessions (scripts and transcripts never read it).
> set
font: Anton (default) — new drafts
format: auto (the picture's own) — share without --format
> set font oswald
new drafts use Oswald
> new
new draft: top TOP, bottom BOTTOM (placeholders until you type captions)
> info
image:
width:
height:
format:
top:
bottom:
font: Oswald
crop: off
unsaved changes: no
editing:
> undo
error: undo: nothing to undo
> set format jpeg
share writes JPEG unless --format or a name says
> load images/cat.png
cat.png: 160×120 PNG
> share file .
saved meme 1
wrote ./meme.jpg
> set format auto
share writes the picture's own format unless --format or a name says
> set format bmp
error: set format: 'bmp' is not a format (png, jpeg, webp, gif or auto)
> set font Comic Sans
error: font: unknown font 'Comic Sans' (available: Anton, BebasNeue, DejaVuSans-Bold, Oswald; 'fonts --installed' lists the system's)
> set colour red
error: set: unknown setting 'colour' (font or format)
> set font
error: set: 'font' needs a NAME or 'default' (usage: set [font NAME|default | format png|jpeg|webp|gif|auto])
> set font default
new drafts use Anton
> set
font: Anton (default) — new drafts
format: auto (the picture's own) — share without --format
