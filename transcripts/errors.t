# Errors are one line; near misses suggest the command; the session goes on.
> captoin a | b
error: unknown command 'captoin'; did you mean 'caption'?
> lod images/cat.png
error: unknown command 'lod'; did you mean 'load'?
> frobnicate
error: unknown command 'frobnicate'; 'help' lists the commands
> top "unterminated
error: unterminated double quote (close it with ")
> 'quoted command'
error: unknown command 'quoted command'; 'help' lists the commands
> quit now
error: quit: unexpected 'now' (usage: quit)
> preview --explian
error: preview: unknown option '--explian'; did you mean '--explain'?
> browse --tvs
error: browse: unknown option '--tvs'; did you mean '--tsv'?
> share prnt
error: share: unknown target 'prnt' (file PATH, clipboard or open)
> show -1
error: show: '-1' is not a meme id (ids are 1, 2, 3…)
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
# One word too many: the error names the extra word, not the first.
> show 3 7
error: show: unexpected '7' (usage: show ID)
> help top bottom
error: help: unexpected 'bottom' (usage: help [COMMAND])
