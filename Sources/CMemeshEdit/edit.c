// wcwidth is declared only for X/Open sources, ppoll only for GNU ones.
#define _GNU_SOURCE
#include "memesh_edit.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

EditLine *memesh_edit_open(const char *program) {
  return el_init(program, stdin, stdout, stderr);
}

int memesh_edit_set_editor(EditLine *editor, const char *mode) {
  return el_set(editor, EL_EDITOR, mode);
}

int memesh_edit_set_signal(EditLine *editor, int on) {
  return el_set(editor, EL_SIGNAL, on);
}

int memesh_edit_set_prompt(EditLine *editor, memesh_edit_prompt prompt, wchar_t literal) {
  return el_wset(editor, EL_PROMPT_ESC, prompt, literal);
}

int memesh_edit_set_client(EditLine *editor, void *client) {
  return el_set(editor, EL_CLIENTDATA, client);
}

void *memesh_edit_client(EditLine *editor) {
  void *client = NULL;
  if (el_get(editor, EL_CLIENTDATA, &client) != 0) return NULL;
  return client;
}

int memesh_edit_add_function(EditLine *editor, const char *name, const char *help,
                             memesh_edit_function function) {
  return el_set(editor, EL_ADDFN, name, help, function);
}

int memesh_edit_bind(EditLine *editor, const char *key, const char *command) {
  return el_set(editor, EL_BIND, key, command, (const char *)NULL);
}

int memesh_edit_setty(EditLine *editor, const char *mode) {
  return el_set(editor, EL_SETTY, "-d", mode, (const char *)NULL);
}

int memesh_edit_set_history(EditLine *editor, HistoryW *history) {
  return el_wset(editor, EL_HIST, history_w, history);
}

int memesh_edit_set_reader(EditLine *editor, memesh_edit_reader reader) {
  return el_wset(editor, EL_GETCFN, reader ? reader : memesh_edit_read_key);
}

// MARK: - Window size changes

int memesh_edit_hold_resizes(void) {
  sigset_t resizes;
  sigemptyset(&resizes);
  sigaddset(&resizes, SIGWINCH);
  return pthread_sigmask(SIG_BLOCK, &resizes, NULL);
}

static volatile sig_atomic_t interrupt_pending;

int memesh_edit_read_key(EditLine *editor, wchar_t *character) {
  (void)editor;
  sigset_t waiting;
  pthread_sigmask(SIG_SETMASK, NULL, &waiting);
  sigdelset(&waiting, SIGWINCH);
  mbstate_t state;
  memset(&state, 0, sizeof state);
  int partial = 0;
  for (;;) {
    if (!partial) {
      // A resize pending since the last key is handled here, by libedit's own handler.
      struct pollfd input = {STDIN_FILENO, POLLIN, 0};
      if (ppoll(&input, 1, NULL, &waiting) < 0) {
        if (errno == EINTR && !interrupt_pending) continue;
        return -1;
      }
    }
    char byte;
    ssize_t count = read(STDIN_FILENO, &byte, 1);
    if (count == 0) return 0;
    if (count < 0) {
      if (errno == EINTR && !interrupt_pending) continue;
      return -1;
    }
    wchar_t decoded;
    size_t used = mbrtowc(&decoded, &byte, 1, &state);
    if (used == (size_t)-2) {
      partial = 1;
      continue;
    }
    partial = 0;
    if (used == (size_t)-1) {
      // Not a character in this locale: dropped, as a terminal would show nothing for it.
      memset(&state, 0, sizeof state);
      continue;
    }
    *character = used == 0 ? L'\0' : decoded;
    return 1;
  }
}

int memesh_edit_prepare_terminal(EditLine *editor, int editing) {
  return el_set(editor, EL_PREP_TERM, editing);
}

int memesh_edit_columns(EditLine *editor) {
  int columns = 0;
  if (el_get(editor, EL_GETTC, "co", &columns, (void *)NULL) != 0) return 0;
  return columns;
}

int memesh_edit_lines(EditLine *editor) {
  int lines = 0;
  if (el_get(editor, EL_GETTC, "li", &lines, (void *)NULL) != 0) return 0;
  return lines;
}

int memesh_wcwidth(wchar_t character) { return wcwidth(character); }

// MARK: - History

int memesh_history_set_size(HistoryW *history, int size) {
  HistEventW event;
  return history_w(history, &event, H_SETSIZE, size);
}

int memesh_history_enter(HistoryW *history, const wchar_t *line) {
  HistEventW event;
  return history_w(history, &event, H_ENTER, line);
}

int memesh_history_clear(HistoryW *history) {
  HistEventW event;
  return history_w(history, &event, H_CLEAR);
}

// MARK: - Ctrl-C while a command runs

static struct sigaction previous_action;
static int catching = 0;

static void interrupt_handler(int signal_number) {
  (void)signal_number;
  interrupt_pending = 1;
}

int memesh_interrupt_catch(void) {
  if (catching) return 0;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = interrupt_handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  if (sigaction(SIGINT, &action, &previous_action) != 0) return -1;
  // A parent may have started memesh with SIGINT blocked; Ctrl-C must still reach the flag.
  sigset_t interrupt_only;
  sigemptyset(&interrupt_only);
  sigaddset(&interrupt_only, SIGINT);
  sigprocmask(SIG_UNBLOCK, &interrupt_only, NULL);
  catching = 1;
  return 0;
}

void memesh_interrupt_release(void) {
  if (!catching) return;
  sigaction(SIGINT, &previous_action, NULL);
  catching = 0;
}

int memesh_interrupt_pending(void) { return interrupt_pending ? 1 : 0; }

void memesh_interrupt_set(int pending) { interrupt_pending = pending ? 1 : 0; }
