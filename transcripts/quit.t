# quit (alias exit) ends the session; nothing after it runs.
> top before
> quit
> top after
