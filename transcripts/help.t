# help lists every command; help COMMAND explains one.
> help
memesh 0.1.0: a meme studio for the terminal

Editor:
  new (add)                         start a blank draft
  load PATH (album)                 load a picture (PNG, JPEG, WebP, GIF, HEIC, AVIF) into the editor
  camera                            take a picture with the camera and load it [unavailable: no camera: MEMESH_CAMERA names '/nonexistent', which does not exist]
  top TEXT                          set the top caption
  bottom TEXT                       set the bottom caption
  caption TOP | BOTTOM              set both captions at once
  text [add TEXT | N TEXT | rm N]   list, add, change and remove the text boxes
  font [NAME]                       choose the caption font
  fonts [--installed]               list the fonts with a sample line
  crop X Y W H | crop W:H | crop off
                                    crop the picture (a rectangle, an aspect ratio, or off)
  place N                           move, resize and turn box N with the keys while the preview follows
  preview [--explain] [--out FILE] [--frame N] [--force]
                                    show the meme (or describe it where pictures cannot be drawn)
  share [file PATH | clipboard | open] [--format png|jpeg|webp|gif] [--lossless] [--force]
                                    save the meme to the sent memes, then hand it on
  cancel                            discard the draft and show the sent memes
  template NAME [STYLE] | save NAME | import DIR [NAME] | rm NAME
                                    start a meme from a template, or save, import or remove one
  info                              print the editor state as key: value lines

Sent memes:
  browse [table|grid] [--tsv] (list, ls)
                                    show the sent memes as a table or a grid of thumbnails
  show ID                           show one sent meme at its own aspect ratio
  edit ID                           open a sent meme in the editor; share then updates it
  delete ID (rm)                    delete a sent meme ('undo' brings it back)
  export ID PATH [--force]          write a sent meme's picture to a file
  templates [table|grid]            list the templates (thumbnails in a graphics terminal)

Detail:
  back                              go back to the sent memes

Anywhere:
  undo                              undo the last thing done: an editor change, new, cancel or a delete
  redo                              redo the editor change undo undid
  history                           list the undo steps: the editor's, and deletes among them
  help [COMMAND]                    list the commands, or explain one
  source FILE                       run the commands in a file (or a transcript's inputs)
  set [font NAME|default | format png|jpeg|webp|gif|auto]
                                    show or change the defaults: new drafts' font, share's format
  clear (cls)                       clear the screen (and the scrollback, as clear(1) does)
  quit (exit)                       leave memesh (so does Ctrl-D)

Commands work from any view when their intent is clear. Quote words with spaces: load 'my photo.jpg'.
In scripts (-c, piped input) memesh stops at the first failed command with status 1; --keep-going goes on (status 1 at the end if any failed, 0 after 'quit').
> help caption
usage: caption TOP | BOTTOM
set both captions at once
The first | separates them; \| puts a bar in a caption. Each is read as 'help top' says.
> help ls
usage: browse [table|grid] [--tsv]
aliases: list, ls
show the sent memes as a table or a grid of thumbnails
--tsv prints one tab-separated row per meme for scripts: id, top, bottom, font, width, height, created (ISO 8601), path of the rendered image.
> help captoin
error: help: no command 'captoin'; did you mean 'caption'?
