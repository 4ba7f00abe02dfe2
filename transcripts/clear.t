# clear (alias cls) clears a terminal's screen and scrollback; on a pipe, a file or a transcript
# it writes nothing at all. Ctrl-L clears just the screen while typing.
> clear
> cls
> clear now
error: clear: unexpected 'now' (usage: clear)
> help clear
usage: clear
aliases: cls
clear the screen (and the scrollback, as clear(1) does)
Prints nothing when the output is not a terminal (a pipe, a file, a script's log), so scripts and transcripts may use it.
