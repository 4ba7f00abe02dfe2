#ifndef MEMESH_EDIT_H
#define MEMESH_EDIT_H
#include <stdio.h>
#include <wchar.h>
#include <histedit.h>

/* libedit configures itself through variadic calls (el_set, el_wset, history_w), which Swift
   cannot make: each wrapper below fixes one argument list. The SIGINT flag lives here too,
   because only C has a portable `volatile sig_atomic_t` a signal handler may write. */

/// A libedit key function: receives the editor and the key, returns a CC_ code.
typedef unsigned char (*memesh_edit_function)(EditLine *editor, int key);
/// A libedit prompt function: returns the wide prompt to draw.
typedef wchar_t *(*memesh_edit_prompt)(EditLine *editor);

/// el_init on the process's stdin, stdout and stderr (Swift 6 refuses those C globals).
EditLine *memesh_edit_open(const char *program);
/// el_set(EL_EDITOR): selects the emacs or vi key map.
int memesh_edit_set_editor(EditLine *editor, const char *mode);
/// el_set(EL_SIGNAL): lets libedit restore the terminal and follow window size changes.
int memesh_edit_set_signal(EditLine *editor, int on);
/// el_wset(EL_PROMPT_ESC): the prompt function; text between two `literal` marks takes no width.
int memesh_edit_set_prompt(EditLine *editor, memesh_edit_prompt prompt, wchar_t literal);
/// el_set(EL_CLIENTDATA): the owner that callbacks get back with memesh_edit_client.
int memesh_edit_set_client(EditLine *editor, void *client);
/// el_get(EL_CLIENTDATA): the owner stored by memesh_edit_set_client.
void *memesh_edit_client(EditLine *editor);
/// el_set(EL_ADDFN): names a key function so memesh_edit_bind can bind keys to it.
int memesh_edit_add_function(EditLine *editor, const char *name, const char *help,
                             memesh_edit_function function);
/// el_set(EL_BIND, key, command, NULL): binds one key sequence in the current key map.
int memesh_edit_bind(EditLine *editor, const char *key, const char *command);
/// el_set(EL_SETTY, "-d", mode, NULL): changes one terminal mode used while editing.
int memesh_edit_setty(EditLine *editor, const char *mode);
/// el_wset(EL_HIST, history_w, history): gives the editor a history for Up, Down and Ctrl-R.
int memesh_edit_set_history(EditLine *editor, HistoryW *history);
/// A libedit character reader: stores one key in `character`, returns 1, 0 at the end, -1 on error.
typedef int (*memesh_edit_reader)(EditLine *editor, wchar_t *character);
/// el_wset(EL_GETCFN): where keys come from (NULL: memesh_edit_read_key).
int memesh_edit_set_reader(EditLine *editor, memesh_edit_reader reader);

/// Blocks SIGWINCH in the calling thread and every thread it starts afterwards: call first
/// thing, before any thread exists. libedit's SIGWINCH handler (EL_SIGNAL) calls el_resize,
/// which allocates; run in a thread the signal caught inside malloc, it corrupts the heap.
int memesh_edit_hold_resizes(void);
/// memesh's key reader for libedit: waits for a key in ppoll with SIGWINCH let through (so
/// libedit's handler runs only there, where it interrupts nothing), then reads one character
/// (decoded as the locale says). 1 with a key, 0 at the end of input, -1 on an error or a
/// Ctrl-C signal.
int memesh_edit_read_key(EditLine *editor, wchar_t *character);
/// el_set(EL_PREP_TERM): puts the terminal in (1) or out of (0) libedit's editing mode.
int memesh_edit_prepare_terminal(EditLine *editor, int editing);
/// el_get(EL_GETTC, "co"): the terminal width libedit currently uses, or 0.
int memesh_edit_columns(EditLine *editor);
/// el_get(EL_GETTC, "li"): the terminal height libedit currently uses, or 0.
int memesh_edit_lines(EditLine *editor);
/// wcwidth(3): glibc declares it only for X/Open sources, which Swift's Glibc module is not.
int memesh_wcwidth(wchar_t character);

/// history_w(H_SETSIZE): how many entries the in-memory history keeps.
int memesh_history_set_size(HistoryW *history, int size);
/// history_w(H_ENTER): appends one entry (the newest).
int memesh_history_enter(HistoryW *history, const wchar_t *line);
/// history_w(H_CLEAR): forgets every entry.
int memesh_history_clear(HistoryW *history);

/// Installs a SIGINT handler (SA_RESTART) that only sets a flag, remembering the old one.
int memesh_interrupt_catch(void);
/// Puts back the SIGINT handler memesh_interrupt_catch replaced.
void memesh_interrupt_release(void);
/// Whether SIGINT arrived since the flag was last cleared (1) or not (0).
int memesh_interrupt_pending(void);
/// Sets (1) or clears (0) the SIGINT flag.
void memesh_interrupt_set(int pending);

#endif
