# Templates: memegen's template folders imported (config.yml and default.png), listed, used to
# start a meme, saved from the editor and removed; every bad folder refused in one line with
# nothing imported. The folders are made by scripts/make-template-fixtures.py.
> templates
no templates yet: 'template save NAME' keeps the editor's picture and boxes, 'template import DIR' reads a memegen template folder
> template drake
error: template: no template named 'drake' (there are none yet: 'template save NAME' or 'template import DIR' makes one)
> template import templates/drake
imported template 'drake' (Drake-like): 2 boxes on a 480×480 PNG
> template import templates/three-labels
imported template 'three-labels' (Three Labels): 3 boxes on a 600×400 PNG
> template import templates/four-boxes
imported template 'four-boxes' (Four Boxes): 4 boxes on a 400×600 PNG
> template import templates/two-buttons
imported template 'two-buttons' (Two Buttons): 3 boxes on a 480×360 PNG; styles: blue, green
> templates
NAME          TITLE         BOXES  SIZE     STYLES
drake         Drake-like    2      480×480
four-boxes    Four Boxes    4      400×600
three-labels  Three Labels  3      600×400
two-buttons   Two Buttons   3      480×360  blue, green
> templates grid
note: no terminal graphics here; showing the table
NAME          TITLE         BOXES  SIZE     STYLES
drake         Drake-like    2      480×480
four-boxes    Four Boxes    4      400×600
three-labels  Three Labels  3      600×400
two-buttons   Two Buttons   3      480×360  blue, green
> templates wide
error: templates: unknown layout 'wide' (table or grid)
# Each hostile folder: one line naming the file and the problem, nothing imported.
> template import templates/bad-yaml
error: cannot import 'templates/bad-yaml/config.yml': not valid YAML: line 4: did not find expected ',' or ']'
> template import templates/unknown-key
error: cannot import 'templates/unknown-key/config.yml': line 4: unknown key 'colour' in text 1 (memegen's: style, color, font, anchor_x, anchor_y, angle, scale_x, scale_y, align, start, stop)
> template import templates/no-picture
error: cannot import 'templates/no-picture': no picture (default.png, default.jpg, default.webp or default.gif)
> template import templates/huge-numbers
error: cannot import 'templates/huge-numbers/config.yml': line 3: text 1: anchor_x 1e308 is out of range (-1 to 2)
> template import templates/symlinked-picture
error: cannot import 'templates/symlinked-picture/default.png': it is a symlink, refused
> template import templates/missing-style
error: cannot import 'templates/missing-style/config.yml': style 'gone' has no picture (gone.png, gone.jpg …)
> template import templates/nowhere
error: cannot import 'templates/nowhere': no such file
> template import templates/drake
error: template import: a template named 'drake' exists already ('template rm drake' removes it, or choose another name)
> template import templates/drake save
error: template import: 'save' is a name memesh keeps for itself
> template import templates/drake Drake
error: template import: 'Drake' may hold only lowercase letters a–z, digits, '-' and '_'
> templates
NAME          TITLE         BOXES  SIZE     STYLES
drake         Drake-like    2      480×480
four-boxes    Four Boxes    4      400×600
three-labels  Three Labels  3      600×400
two-buttons   Two Buttons   3      480×360  blue, green
# A template starts a new draft on its picture, its boxes holding the example texts.
> template drak
error: template: no template named 'drak'; did you mean 'drake'?
> template drake
new meme from template 'drake' (Drake-like): 2 boxes holding its example texts
> info
image: drake.png
width: 480
height: 480
format: png
top: writing captions by hand
bottom: templates in the terminal
font: Anton
crop: off
unsaved changes: yes
editing:
box 1: 50% 0% 50% 50%; center, as-typed, black, no outline, font Anton (the meme's), angle 0°; writing captions by hand
box 2: 50% 50% 50% 50%; center, as-typed, black, no outline, font Anton (the meme's), angle 0°; templates in the terminal
> undo
undid template drake
> template two-buttons blue
new meme from template 'two-buttons' (Two Buttons): 3 boxes holding its example texts
> info
image: two-buttons-blue.png
width: 480
height: 360
format: png
top: tabs
bottom: spaces
font: Anton
crop: off
unsaved changes: yes
editing:
box 1: 16.3% 24.1% 30% 20%; center, as-typed, #202020, outline black, font Anton (the meme's), angle -12.5°; tabs
box 2: 55% 20% 30% 20%; center, upper, white, outline black (auto), font Anton (the meme's), angle 0°; spaces
box 3: bottom (4% 68.9% 92.1% 28.1%); center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
> template two-buttons red
error: template: 'two-buttons' has no style 'red' (its styles: blue, green)
> template drake blue
error: template: 'drake' has no style 'blue' (it has none)
> template drake extra words
error: template: unexpected 'words' (usage: template NAME [STYLE] | save NAME | import DIR [NAME] | rm NAME)
# The editor's picture and boxes become a template of its own.
> template save
error: template: save needs a NAME (usage: template NAME [STYLE] | save NAME | import DIR [NAME] | rm NAME)
> template save drake
error: template save: a template named 'drake' exists already ('template rm drake' removes it, or choose another name)
> template save ../up
error: template save: '../up' may hold only lowercase letters a–z, digits, '-' and '_'
> template save my-buttons
saved template 'my-buttons': 3 boxes on a 480×360 PNG; 'template my-buttons' starts a meme from it
> template my-buttons
new meme from template 'my-buttons' (my-buttons): 3 boxes holding its example texts
> info
image: my-buttons.png
width: 480
height: 360
format: png
top: tabs
bottom: spaces
font: Anton
crop: off
unsaved changes: yes
editing:
box 1: 16.3% 24.1% 30% 20%; center, as-typed, #202020, outline black, font Anton (the meme's), angle -12.5°; tabs
box 2: 55% 20% 30% 20%; center, upper, white, outline black (auto), font Anton (the meme's), angle 0°; spaces
box 3: bottom (4% 68.9% 92.1% 28.1%); center, upper, white, outline black (auto), font Anton (the meme's), angle 0°
# Removing goes to a trash; undo right after brings the templates back, newest first.
> template rm drake
removed template 'drake' ('undo' brings it back)
> template rm drake
error: template rm: no template named 'drake'; 'templates' lists them
> template rm three-labels
removed template 'three-labels' ('undo' brings it back)
> templates
NAME         TITLE        BOXES  SIZE     STYLES
four-boxes   Four Boxes   4      400×600
my-buttons   my-buttons   3      480×360
two-buttons  Two Buttons  3      480×360  blue, green
> undo
restored template 'three-labels'
> undo
restored template 'drake'
> templates
NAME          TITLE         BOXES  SIZE     STYLES
drake         Drake-like    2      480×480
four-boxes    Four Boxes    4      400×600
my-buttons    my-buttons    3      480×360
three-labels  Three Labels  3      600×400
two-buttons   Two Buttons   3      480×360  blue, green
# undo undoes the last thing done, a template's removal among the editor's changes.
> template rm four-boxes
removed template 'four-boxes' ('undo' brings it back)
> top changed
> undo
undid top "changed"
> top
top: tabs
> undo
restored template 'four-boxes'
> templates
NAME          TITLE         BOXES  SIZE     STYLES
drake         Drake-like    2      480×480
four-boxes    Four Boxes    4      400×600
my-buttons    my-buttons    3      480×360
three-labels  Three Labels  3      600×400
two-buttons   Two Buttons   3      480×360  blue, green
# undo is refused when a template of that name was made since.
> template rm my-buttons
removed template 'my-buttons' ('undo' brings it back)
> template save my-buttons
saved template 'my-buttons': 3 boxes on a 480×360 PNG; 'template my-buttons' starts a meme from it
> undo
error: undo: cannot bring back template 'my-buttons': one of that name was made since ('template rm my-buttons' first)
> template
error: template: needs a template's NAME, or save, import or rm (usage: template NAME [STYLE] | save NAME | import DIR [NAME] | rm NAME)
> template rm
error: template: rm needs a NAME (usage: template NAME [STYLE] | save NAME | import DIR [NAME] | rm NAME)
