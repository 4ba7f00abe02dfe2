# Any file name works, the shortest included: one-character names are plain file names.
> load images/cat.png
cat.png: 160×120 PNG
> top short names
> preview --out c
wrote c (160×120)
> share file a
saved meme 1
wrote a
> export 1 b
wrote b
> load a
'a' was made by memesh (top "short names", bottom "")
editing meme 1; 'share' updates it in place
