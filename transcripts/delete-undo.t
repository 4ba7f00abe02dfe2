# Deleting a sent meme and bringing it back with undo (in the sent memes, undo undoes a delete).
> load images/square.png
square.png: 64×64 PNG
> caption to be | deleted
> share
saved meme 1
> load images/cat.png
cat.png: 160×120 PNG
> caption to be | kept
> share
saved meme 2
> delete 1
deleted meme 1 ('undo' brings it back)
> browse
ID  TOP    BOTTOM  FONT   SIZE     CREATED
 2  to be  kept    Anton  160×120  [date]
> undo
restored meme 1
> browse
ID  TOP    BOTTOM   FONT   SIZE     CREATED
 1  to be  deleted  Anton  64×64    [date]
 2  to be  kept     Anton  160×120  [date]
> undo
error: undo: nothing to undo (no deleted memes)
> rm 7
error: rm: no meme with id 7; 'browse' lists the sent memes
> delete one
error: delete: 'one' is not a meme id (ids are 1, 2, 3…)
