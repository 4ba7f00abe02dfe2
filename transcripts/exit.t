# exit is quit's alias; Ctrl-D (the end of input) also ends the session cleanly.
> exit
> info
