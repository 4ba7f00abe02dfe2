# A file already there: share file, export and preview --out replace it only with --force (at a
# terminal memesh asks first; a script is refused before anything is rendered or saved). `-`
# names standard output and standard input, which a transcript keeps for itself.
> load images/cat.png
cat.png: 160×120 PNG
> top first
> share file kept.png
saved meme 1
wrote kept.png
> load images/square.png
square.png: 64×64 PNG
> top second
> share file kept.png
error: share: 'kept.png' already exists (add --force to replace it)
> browse --tsv
1	first		Anton	160	120	[date]	[path]
> share file kept.png --force
saved meme 2
wrote kept.png
> load kept.png
'kept.png' was made by memesh (top "second", bottom "")
editing meme 2; 'share' updates it in place
> preview --out kept.png
error: preview: 'kept.png' already exists (add --force to replace it)
> preview --out kept.png --force
wrote kept.png (64×64)
> export 1 kept.png
error: export: 'kept.png' already exists (add --force to replace it)
> export --force 1 kept.png
wrote kept.png
> export 1 kept.png extra
error: export: unexpected 'extra' (usage: export ID PATH [--force])
> export 1 -
error: export: cannot write the picture to standard output: a transcript records it
> load -
error: load: cannot read standard input: a transcript cannot read it
