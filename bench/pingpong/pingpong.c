/* The floor for bots as processes: a C program that starts the bots and writes them exactly the
 * bytes croupier wrote, in the same batches (one write() per bot and decision), reading one
 * answer line per decision, and nothing else: no rules, no records. bench/pingpong.sh makes
 * the plan from a real croupier run and times both.
 *
 * Usage: pingpong PLAN CMD [ARG…]   (CMD is started once per seat)
 * PLAN (made by bench/pingpong.sh): a line `N <seats>`, then operations:
 *   `W <seat> <length>\n` followed by <length> bytes: one write() to that bot's stdin;
 *   `R <seat>\n`: read one line from that bot's stdout. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SEATS 16

struct op { char kind; int seat; size_t len; char *bytes; };

static void die(const char *m) { perror(m); exit(2); }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: pingpong PLAN CMD [ARG…]\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) die(argv[1]);
    int seats;
    if (fscanf(f, "N %d\n", &seats) != 1 || seats < 1 || seats > MAX_SEATS) { fprintf(stderr, "bad plan\n"); return 2; }
    size_t nops = 0, capops = 1024;
    struct op *ops = malloc(capops * sizeof *ops);
    char kind;
    int seat;
    while (fscanf(f, "%c %d", &kind, &seat) == 2) {
        if (nops == capops) ops = realloc(ops, (capops *= 2) * sizeof *ops);
        struct op *o = &ops[nops++];
        o->kind = kind; o->seat = seat; o->len = 0; o->bytes = NULL;
        if (kind == 'W') {
            if (fscanf(f, " %zu", &o->len) != 1) { fprintf(stderr, "bad plan\n"); return 2; }
            fgetc(f); /* the newline */
            o->bytes = malloc(o->len);
            if (fread(o->bytes, 1, o->len, f) != o->len) { fprintf(stderr, "short plan\n"); return 2; }
        } else {
            fgetc(f);
        }
    }
    fclose(f);

    int in[MAX_SEATS], out[MAX_SEATS];
    pid_t pid[MAX_SEATS];
    for (int s = 0; s < seats; s++) {
        int a[2], b[2];
        if (pipe(a) || pipe(b)) die("pipe");
        pid[s] = fork();
        if (pid[s] < 0) die("fork");
        if (pid[s] == 0) {
            dup2(a[0], 0); dup2(b[1], 1);
            close(a[0]); close(a[1]); close(b[0]); close(b[1]);
            execvp(argv[2], argv + 2);
            _exit(127);
        }
        close(a[0]); close(b[1]);
        in[s] = a[1]; out[s] = b[0];
    }
    static char buf[MAX_SEATS][1 << 16];
    size_t have[MAX_SEATS] = {0};
    for (size_t i = 0; i < nops; i++) {
        struct op *o = &ops[i];
        if (o->kind == 'W') {
            size_t done = 0;
            while (done < o->len) {
                ssize_t w = write(in[o->seat], o->bytes + done, o->len - done);
                if (w < 0) { if (errno == EINTR) continue; die("write"); }
                done += (size_t)w;
            }
        } else {
            int s = o->seat;
            for (;;) {
                char *nl = memchr(buf[s], '\n', have[s]);
                if (nl) {
                    size_t used = (size_t)(nl - buf[s]) + 1;
                    memmove(buf[s], buf[s] + used, have[s] - used);
                    have[s] -= used;
                    break;
                }
                ssize_t r = read(out[s], buf[s] + have[s], sizeof buf[s] - have[s]);
                if (r < 0) { if (errno == EINTR) continue; die("read"); }
                if (r == 0) { fprintf(stderr, "seat %d closed its output\n", s); return 1; }
                have[s] += (size_t)r;
            }
        }
    }
    for (int s = 0; s < seats; s++) close(in[s]);
    for (int s = 0; s < seats; s++) waitpid(pid[s], NULL, 0);
    return 0;
}
