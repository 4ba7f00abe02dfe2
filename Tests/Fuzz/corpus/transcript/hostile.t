# Control characters, escape sequences and bidi overrides in captions and file names are shown
# escaped, never raw; the session goes on.
> top bell and [31mred[0m
> load images/cat.png
cat.png: 160×120 PNG
> bottom ‮evil override
> info
image: images/cat.png
width: 160
height: 120
format: png
top: bell\a and \e[31mred\e[0m
bottom: \u{202E}evil override
font: Anton
crop: off
unsaved changes: yes
editing:
> load images/]0;title.png
error: cannot load 'images/\e]0;title\a.png': no such file
> caption ab | cd
> info
image: images/cat.png
width: 160
height: 120
format: png
top: a\x01b
bottom: c\x7Fd
font: Anton
crop: off
unsaved changes: yes
editing:
