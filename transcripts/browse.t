# browse [table|grid] (aliases list, ls); browse --tsv for scripts.
> browse
no sent memes yet: 'load PATH' a picture, caption it and 'share' it
> browse --tsv
> load images/cat.png
cat.png: 160×120 PNG
> caption one | two
> share
saved meme 1
> load images/square.png
square.png: 64×64 PNG
> top only a top
> share --format jpeg
saved meme 2
> browse
ID  TOP         BOTTOM  FONT   SIZE     CREATED
 1  one         two     Anton  160×120  [date]
 2  only a top          Anton  64×64    [date]
> list table
ID  TOP         BOTTOM  FONT   SIZE     CREATED
 1  one         two     Anton  160×120  [date]
 2  only a top          Anton  64×64    [date]
> ls grid
note: no terminal graphics here; showing the table
ID  TOP         BOTTOM  FONT   SIZE     CREATED
 1  one         two     Anton  160×120  [date]
 2  only a top          Anton  64×64    [date]
> browse --tsv
1	one	two	Anton	160	120	[date]	[path]
2	only a top		Anton	64	64	[date]	[path]
> browse tabel
error: browse: unknown layout 'tabel'; did you mean 'table'?
> browse --tsv grid
error: browse: --tsv takes no layout (usage: browse [table|grid] [--tsv])
