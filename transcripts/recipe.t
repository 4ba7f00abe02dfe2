# Every picture memesh writes carries its recipe; loading one reopens the meme when its original
# is in the store.
> load images/cat.png
cat.png: 160×120 PNG
> caption with | a recipe
> share file shared.png
saved meme 1
wrote shared.png
> load shared.png
'shared.png' was made by memesh (top "with", bottom "a recipe")
editing meme 1; 'share' updates it in place
> info
image: cat.png
width: 160
height: 120
format: png
top: with
bottom: a recipe
font: Anton
crop: off
unsaved changes: no
editing: 1
> delete 1
deleted meme 1 ('undo' brings it back)
> load shared.png
note: 'shared.png' was made by memesh (top "with", bottom "a recipe") but its original is not in the store; captioning the captioned picture
shared.png: 160×120 PNG
> info
image: shared.png
width: 160
height: 120
format: png
top: with
bottom: a recipe
font: Anton
crop: off
unsaved changes: yes
editing:
