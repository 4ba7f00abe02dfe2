# new (alias add) starts a blank draft; placeholders show until captions are typed.
> load images/cat.png
cat.png: 160×120 PNG
> top hello
> new
new draft: top TOP, bottom BOTTOM (placeholders until you type captions)
> info
image:
width:
height:
format:
top:
bottom:
font: Anton
crop: off
unsaved changes: no
editing:
> top
top: TOP (placeholder; 'top TEXT' sets it, 'top ""' clears it)
> bottom
bottom: BOTTOM (placeholder; 'bottom TEXT' sets it, 'bottom ""' clears it)
> add
new draft: top TOP, bottom BOTTOM (placeholders until you type captions)
> new extra
error: new: unexpected 'extra' (usage: new)
