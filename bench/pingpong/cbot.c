/* A trivial croupier bot in C: answers the handshake, plays the first legal action of every
 * `act`, answers `quit` and exits; ignores notifications. The bot side of bench/pingpong.sh,
 * so that both the referee and the ping-pong talk to a bot that costs next to nothing. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (line[n - 1] == '\n') line[--n] = 0;
        if (!isdigit((unsigned char)line[0])) continue; /* a notification */
        char *cmd = strchr(line, ' ');
        if (!cmd) continue;
        *cmd++ = 0;
        char *args = strchr(cmd, ' ');
        if (args) *args++ = 0;
        if (!strcmp(cmd, "hello")) {
            printf("=%s cbot 1\n", line);
        } else if (!strcmp(cmd, "quit")) {
            printf("=%s\n", line);
            fflush(stdout);
            return 0;
        } else if (!strcmp(cmd, "act") && args) {
            /* act <decision> <time_ms> <first legal> … */
            char *a = strchr(args, ' ');
            a = a ? strchr(a + 1, ' ') : NULL;
            if (!a) continue;
            a++;
            char *end = strchr(a, ' ');
            if (end) *end = 0;
            printf("=%s %s\n", line, a);
        } else {
            printf("?%s unknown command\n", line);
        }
        fflush(stdout);
    }
    return 0;
}
