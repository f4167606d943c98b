/* lowbot.c - a croupier bot in C (C99 and POSIX getline), protocol v1 (../../protocol.md).
 *
 * Build:  cc -O2 -o lowbot bots/c/lowbot.c
 * Run:    croupier play kul --players 3 --seat ./lowbot --seat random --seat simple
 *
 * It plays every game without reading the game: each `act` request lists the legal actions, and
 * it picks one of them by their spelling:
 *   - `out` when it may (Skwitz: declare Out!);
 *   - else the capture that takes the most cards (Skwitz tokens "CARD:C1,C2,...");
 *   - Schwimmen: knock with 26 or more, else the exchange that makes the best hand;
 *   - else the lowest card among the card tokens ("7H", "AS"; the first listed among equals):
 *     cheap in a trick, and it keeps the high cards for later;
 *   - else the first legal action (a bid, a vote, a swap: `pass`, `keep_seen`, ...).
 *
 * The protocol: a line that starts with a number is a request "<id> <command> <args...>" and
 * gets exactly one answer line, "=<id> <result>" or "?<id> <message>", flushed at once. Any other
 * line is a notification: never answered (this bot ignores them all). `quit` and the end of
 * input end the bot. Lines may be long (a Skwitz act lists many captures): they are read whole.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 4096

static const char *RANKS = "23456789TJQKA"; /* low to high */

/* The rank of a card token (0 = two ... 12 = ace), or -1 if the token is not a card. */
static int card_rank(const char *t) {
    const char *r;
    if (strlen(t) != 2 || t[0] == '\0' || !strchr("SHDC", t[1]))
        return -1;
    r = strchr(RANKS, t[0]);
    return r ? (int)(r - RANKS) : -1;
}

/* How many cards a Skwitz capture takes ("9H:4S,5C" takes 2), -1 if it is no capture. */
static int captured(const char *t) {
    const char *p = strchr(t, ':');
    int n = 1;
    if (!p)
        return -1;
    for (p++; *p; p++)
        n += *p == ',';
    return n;
}

/* Schwimmen: twice the value of three cards (the best suit: A 11, K Q J T 10, others their
 * number; three of a rank 30.5), so that every value is an integer. */
static int hand_value2(char c[3][3]) {
    int s, i, best = 0;
    if (c[0][0] == c[1][0] && c[1][0] == c[2][0])
        return 61;
    for (s = 0; s < 4; s++) {
        int sum = 0;
        for (i = 0; i < 3; i++)
            if (c[i][1] == "SHDC"[s])
                sum += c[i][0] == 'A' ? 11 : card_rank(c[i]) >= 8 ? 10 : card_rank(c[i]) + 2;
        best = sum > best ? sum : best;
    }
    return 2 * best;
}

/* Adds the card at the start of t to cards[0 .. n-1] unless it is there; the new count. */
static int add_card(char cards[3][3], int n, const char *t) {
    int i;
    for (i = 0; i < n; i++)
        if (strncmp(cards[i], t, 2) == 0)
            return n;
    if (n == 3)
        return n;
    memcpy(cards[n], t, 2);
    cards[n][2] = '\0';
    return n + 1;
}

/* Schwimmen's `turn` (the tokens swap_<hand card>_<middle card>, swap_all, knock, pass): the
 * legal list names all three hand and middle cards, so knock with 26 or more, else take the
 * exchange that makes the best hand. -1 when the tokens are not Schwimmen's. */
static int schwimmen(char **legal, int n) {
    char hand[3][3], middle[3][3], after[3][3];
    int i, j, h = 0, m = 0, best = -1, top = -1, knock = -1, all = -1;
    for (i = 0; i < n; i++) {
        const char *t = legal[i];
        if (strcmp(t, "knock") == 0)
            knock = i;
        if (strcmp(t, "swap_all") == 0)
            all = i;
        if (strncmp(t, "swap_", 5) != 0 || strlen(t) != 10 || card_rank(t + 8) < 0)
            continue;
        h = add_card(hand, h, t + 5);
        m = add_card(middle, m, t + 8);
    }
    if (h < 3 || m < 3)
        return -1;
    if (knock >= 0 && hand_value2(hand) >= 52)
        return knock;
    if (all >= 0)
        best = all, top = hand_value2(middle);
    for (i = 0; i < n; i++) {
        const char *t = legal[i];
        if (strncmp(t, "swap_", 5) != 0 || strlen(t) != 10)
            continue;
        memcpy(after, hand, sizeof after);
        for (j = 0; j < 3; j++)
            if (strncmp(after[j], t + 5, 2) == 0)
                strcpy(after[j], t + 8);
        if (hand_value2(after) > top)
            top = hand_value2(after), best = i;
    }
    return best;
}

/* The index of the chosen action among legal[0 .. n-1] (n >= 1). */
static int choose(char **legal, int n) {
    int i, best = schwimmen(legal, n), most = 0, low = 99;
    if (best >= 0)
        return best;
    for (i = 0; i < n; i++)
        if (strcmp(legal[i], "out") == 0)
            return i;
    for (i = 0; i < n; i++)
        if (captured(legal[i]) > most)
            most = captured(legal[i]), best = i;
    if (best >= 0)
        return best;
    for (i = 0; i < n; i++) {
        int r = card_rank(legal[i]);
        if (r >= 0 && r < low)
            low = r, best = i;
    }
    return best >= 0 ? best : 0;
}

static void answer(const char *fmt, const char *id, const char *text) {
    printf(fmt, id, text);
    fflush(stdout); /* croupier only reads what we flush */
}

int main(void) {
    char *line = NULL, *words[MAX_WORDS];
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) != -1) {
        int n = 0;
        char *w, *save = NULL;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0'; /* LF or CRLF */
        for (w = strtok_r(line, " ", &save); w && n < MAX_WORDS; w = strtok_r(NULL, " ", &save))
            words[n++] = w;
        if (n == 0 || strspn(words[0], "0123456789") != strlen(words[0]))
            continue; /* a notification (or a blank line): never answered */
        if (n == 1) {
            answer("?%s unknown command%s\n", words[0], "");
        } else if (strcmp(words[1], "hello") == 0) {
            if (n > 2 && strcmp(words[2], "1") == 0)
                answer("=%s %s\n", words[0], "lowbot 1.0");
            else
                answer("?%s %s\n", words[0], "only protocol version 1 is supported");
        } else if (strcmp(words[1], "act") == 0) {
            /* act <decision> <time_ms> <legal action> <legal action> ... */
            if (n < 5)
                answer("?%s %s\n", words[0], "no legal actions given");
            else
                answer("=%s %s\n", words[0], words[4 + choose(words + 4, n - 4)]);
        } else if (strcmp(words[1], "quit") == 0) {
            answer("=%s%s\n", words[0], "");
            break;
        } else {
            answer("?%s %s\n", words[0], "unknown command");
        }
    }
    free(line);
    return 0;
}
