# export ID PATH writes a sent meme's picture to a file (or into a folder).
> load images/cat.png
cat.png: 160×120 PNG
> caption export | me
> share
saved meme 1
> export 1 exported.png
wrote exported.png
> load exported.png
'exported.png' was made by memesh (top "export", bottom "me")
editing meme 1; 'share' updates it in place
> export 1 images
wrote images/meme-1.png
> export 1
error: export: needs an ID and a PATH (usage: export ID PATH [--force])
> export 9 x.png
error: export: no meme with id 9; 'browse' lists the sent memes
> export 1 /dev/null
error: export: cannot write '/dev/null': is a device; memesh only writes regular files
> export 1 exported.jpg
error: export: cannot write 'exported.jpg': meme 1 is a PNG, not JPEG (name it .png)
> export 1 exported.gif
error: export: cannot write 'exported.gif': meme 1 is a PNG, not GIF (name it .png)
