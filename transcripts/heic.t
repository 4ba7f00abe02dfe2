# load a phone's HEIC or AVIF (libheif): the picture is upright as the phone shows it (its irot
# applied once, its EXIF orientation never again), and share writes a JPEG unless a name or
# --format asks for another format. images/phone.heic is an iPhone-style portrait: a grid of
# tiles stored sideways, irot, and EXIF orientation 6 (scripts/make-heif-fixtures.py).
> load images/phone.heic
phone.heic: 120×100 HEIC
> info
image: images/phone.heic
width: 120
height: 100
format: heic
top:
bottom:
font: Anton
crop: off
unsaved changes: yes
editing:
> caption from a phone | to a jpeg
> share file phone-meme
saved meme 1
wrote phone-meme
> load phone-meme
'phone-meme' was made by memesh (top "from a phone", bottom "to a jpeg")
editing meme 1; 'share' updates it in place
> cancel
draft discarded ('undo' brings it back)
> export 1 exported.jpg
wrote exported.jpg
> load images/cat.avif
cat.avif: 64×48 AVIF
> share file avif-meme
saved meme 2
wrote avif-meme
> load images/cat.avif
cat.avif: 64×48 AVIF
> share file avif-meme.png
saved meme 3
wrote avif-meme.png
> browse --tsv
1	from a phone	to a jpeg	Anton	120	100	[date]	...meme.jpg
2			Anton	64	48	[date]	...meme.jpg
3			Anton	64	48	[date]	...meme.png
