/* ncurses.c - ncurses' variadic printw family and tiparm on a screen
 * written to /dev/null; the screen's text is read back and printed. */
#include <curses.h>
#include <stdio.h>
#include <term.h>

int main(void)
{
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *screen = newterm("xterm", out, in);
    if (!screen)
        return 2;
    set_term(screen);
    for (int i = 0; i < 5; i++)
        mvprintw(i, 0, "row %d: %s %5.2f %c %ld", i, "abc", i * 1.5, 'a' + i, 100000L * i);
    WINDOW *w = newwin(4, 40, 6, 0);
    mvwprintw(w, 1, 1, "win %lld %s %g", 123456789012LL, "text", 2.5e-3);
    wprintw(w, " +%x", 0xbeef);
    printw("tail %s", "end");
    char line[64];
    for (int i = 0; i < 6; i++) {
        mvinnstr(i, 0, line, 40);
        printf("stdscr %d: [%s]\n", i, line);
    }
    mvwinnstr(w, 1, 0, line, 40);
    printf("window: [%s]\n", line);
    char *cup = tigetstr("cup");
    char *moved = tiparm(cup, 5, 10);
    printf("tiparm cup:");
    for (const char *p = moved; p && *p; p++)
        printf(*p < 32 ? " ^%c" : " %c", *p < 32 ? *p + 64 : *p);
    printf("\n");
    delwin(w);
    endwin();
    delscreen(screen);
    fclose(out);
    fclose(in);
    return 0;
}
