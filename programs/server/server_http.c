/*
 * server_http.c -- HTTP on bytes alone, for the front of `bouton serve`
 * (server_net.h, server_front_impl.h): the checks of a request head
 * (srv_check_head), where a head ends and how its body is framed, the
 * check of the chunked framing that comes with a first head, and the JSON
 * error answers that the front makes itself (srv_format_error,
 * srv_send_error).
 *
 * Functions of the bytes they are given: no state, no thread, no socket
 * but the one srv_send_error writes to.  They call the API's error
 * answers (srv_reply_errorf, server.h) and nothing else of the server.
 */
#define _GNU_SOURCE /* as the front's other files */
#include <stdio.h>
#include <string.h>

#include <sys/socket.h>

#include "server_front_impl.h"

#ifdef BOUTON_SERVER

/* --------------------------------------------------------- request heads */

static int
is_tchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static int
name_is(const char *s, size_t n, const char *name)
{
    size_t i;

    if (strlen(name) != n)
        return 0;
    for (i = 0; i < n; i++) {
        char c = s[i];

        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != name[i])
            return 0;
    }
    return 1;
}

static unsigned
bad(const char **code, char *msg, size_t size, unsigned status,
    const char *c, const char *text)
{
    *code = c;
    snprintf(msg, size, "%s", text);
    return status;
}

unsigned
srv_check_head(const char *head, size_t n, size_t max_body,
               const char **code, char *msg, size_t msgsize)
{
    const char *p = head, *end = head + n, *eol, *sp1, *sp2;
    int minor, major, hosts = 0, tes = 0, lens = 0;
    unsigned long long clen = 0;

    while (p < end && (*p == '\r' || *p == '\n'))
        p++; /* empty lines before a request are ignored (RFC 9112 2.2) */
    eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
        return n > SRV_MAX_LINE
                   ? bad(code, msg, msgsize, 414, "ELIMIT",
                         "the request line is over the limit of 4096 bytes")
                   : bad(code, msg, msgsize, 400, "EHTTP",
                         "the request line does not end");
    if ((size_t)(eol - p) > SRV_MAX_LINE)
        return bad(code, msg, msgsize, 414, "ELIMIT",
                   "the request line is over the limit of 4096 bytes");
    if (n > SRV_MAX_HEAD)
        return bad(code, msg, msgsize, 431, "ELIMIT",
                   "the request head is over the limit of 8192 bytes");
    /* method SP target SP HTTP/d.d */
    for (sp1 = p; sp1 < eol && is_tchar((unsigned char)*sp1); sp1++)
        ;
    if (sp1 == p || sp1 >= eol || *sp1 != ' ')
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "malformed request line (expected: METHOD TARGET "
                   "HTTP/1.1)");
    for (sp2 = sp1 + 1; sp2 < eol && (unsigned char)*sp2 > ' ' &&
                        *sp2 != 0x7f;
         sp2++)
        ;
    if (sp2 == sp1 + 1 || sp2 >= eol || *sp2 != ' ')
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "malformed request line (expected: METHOD TARGET "
                   "HTTP/1.1)");
    {
        const char *v = sp2 + 1;
        size_t vl = (size_t)(eol - v);

        if (vl && v[vl - 1] == '\r')
            vl--;
        if (vl != 8 || memcmp(v, "HTTP/", 5) != 0 || v[5] < '0' ||
            v[5] > '9' || v[6] != '.' || v[7] < '0' || v[7] > '9')
            return bad(code, msg, msgsize, 400, "EHTTP",
                       "malformed HTTP version in the request line");
        major = v[5] - '0';
        minor = v[7] - '0';
        if (major != 1 || minor > 1)
            return bad(code, msg, msgsize, 505, "EHTTPVERSION",
                       "this server speaks HTTP/1.0 and HTTP/1.1 only");
    }
    /* header fields, up to the blank line */
    for (p = eol + 1; p < end; p = eol + 1) {
        const char *colon, *v, *ve;
        size_t len;

        eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        len = (size_t)(eol - p);
        if (len && p[len - 1] == '\r')
            len--;
        if (len == 0)
            break; /* the blank line */
        if (*p == ' ' || *p == '\t')
            return bad(code, msg, msgsize, 400, "EHTTP",
                       "a header line folded onto the next (obsolete)");
        colon = memchr(p, ':', len);
        if (!colon)
            return bad(code, msg, msgsize, 400, "EHTTP",
                       "a header line without a colon");
        for (v = p; v < colon && is_tchar((unsigned char)*v); v++)
            ;
        if (v == p || v != colon)
            return bad(code, msg, msgsize, 400, "EHTTP",
                       "a header name with a character not allowed");
        for (v = colon + 1; v < p + len && (*v == ' ' || *v == '\t'); v++)
            ;
        for (ve = p + len; ve > v && (ve[-1] == ' ' || ve[-1] == '\t'); ve--)
            ;
        {
            const char *q;

            for (q = v; q < ve; q++)
                if (((unsigned char)*q < ' ' && *q != '\t') || *q == 0x7f)
                    return bad(code, msg, msgsize, 400, "EHTTP",
                               "a control character in a header value");
        }
        if (name_is(p, (size_t)(colon - p), "host")) {
            hosts++;
        } else if (name_is(p, (size_t)(colon - p), "transfer-encoding")) {
            tes++;
            if (!name_is(v, (size_t)(ve - v), "chunked"))
                return bad(code, msg, msgsize, 501, "ENOTIMPL",
                           "Transfer-Encoding other than chunked is not "
                           "implemented");
        } else if (name_is(p, (size_t)(colon - p), "content-length")) {
            unsigned long long x = 0;
            const char *q;
            int digits = 0;

            for (q = v; q < ve; q++, digits++) {
                if (*q < '0' || *q > '9')
                    return bad(code, msg, msgsize, 400, "EHTTP",
                               "Content-Length is not a decimal number");
                if (digits < 19)
                    x = x * 10 + (unsigned long long)(*q - '0');
                else
                    x = ~0ULL; /* past 10^19: over any limit */
            }
            if (!digits)
                return bad(code, msg, msgsize, 400, "EHTTP",
                           "Content-Length is empty");
            if (lens++ && x != clen)
                return bad(code, msg, msgsize, 400, "EHTTP",
                           "two Content-Length headers that differ");
            clen = x;
        }
    }
    if (tes > 1)
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "more than one Transfer-Encoding header");
    if (tes && lens)
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "both Content-Length and Transfer-Encoding");
    if (hosts > 1)
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "more than one Host header");
    if (!hosts && minor == 1)
        return bad(code, msg, msgsize, 400, "EHTTP",
                   "an HTTP/1.1 request without a Host header");
    if (lens && clen > max_body) {
        *code = "ELIMIT";
        snprintf(msg, msgsize,
                 "request body of %s bytes is over the limit of %zu bytes",
                 clen == ~0ULL ? "more than 10^19" : "that many", max_body);
        if (clen != ~0ULL)
            snprintf(msg, msgsize,
                     "request body of %llu bytes is over the limit of %zu "
                     "bytes",
                     clen, max_body);
        return 413;
    }
    return 0;
}

/* ---------------------------------------------------------------- framing */

/* The length of the head at the start of b[0, n) (with the empty lines
   before its request line and its blank line), or 0 while incomplete. */
size_t
srv_head_end(const char *b, size_t n)
{
    const char *p = b, *e = b + n;

    while (p < e && (*p == '\r' || *p == '\n'))
        p++;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));

        if (!nl)
            return 0;
        if (nl + 1 < e && nl[1] == '\n')
            return (size_t)(nl + 2 - b);
        if (nl + 2 < e && nl[1] == '\r' && nl[2] == '\n')
            return (size_t)(nl + 3 - b);
        p = nl + 1;
    }
    return 0;
}

/* The body framing of a head that srv_check_head() accepted: *chunked, or
   the Content-Length (0 when none). */
unsigned long long
srv_head_body(const char *head, size_t n, int *chunked)
{
    const char *p = head, *end = head + n;
    unsigned long long clen = 0;

    *chunked = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *q;

        if (!nl)
            break;
        if ((size_t)(nl - p) >= 18 && name_is(p, 17, "transfer-encoding") &&
            p[17] == ':')
            *chunked = 1;
        if ((size_t)(nl - p) >= 15 && name_is(p, 14, "content-length") &&
            p[14] == ':') {
            clen = 0;
            for (q = p + 15; q < nl; q++)
                if (*q >= '0' && *q <= '9')
                    clen = clen * 10 + (unsigned long long)(*q - '0');
        }
        p = nl + 1;
    }
    return clen;
}

/* Whether a valid head (srv_check_head) announces a chunked body. */
int
srv_is_chunked(const char *head, const char *end)
{
    const char *p = head;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));

        if (!nl)
            return 0;
        if ((size_t)(nl - p) >= 18 && name_is(p, 17, "transfer-encoding") &&
            p[17] == ':')
            return 1;
        p = nl + 1;
    }
    return 0;
}

/* Steps *pp over the end of a line (CR LF, or a bare LF): 1, or 0 when
   the input ends first, or -1 when anything else stands there. */
static int
line_end(const char **pp, const char *end)
{
    const char *p = *pp;

    if (p < end && *p == '\r')
        p++;
    if (p == end)
        return 0;
    if (*p != '\n')
        return -1;
    *pp = p + 1;
    return 1;
}

/*
 * Checks the chunked framing (RFC 9112 7.1) of the part of a body that has
 * arrived with its head: 0 when it is valid as far as it goes, -1 at the
 * first error.  What arrives later the relay checks as it comes
 * (server_relay.c).
 */
int
srv_check_chunks(const char *p, const char *end)
{
    while (p < end) {
        unsigned long long size = 0;
        int digits = 0, r;

        for (; p < end && strchr("0123456789abcdefABCDEF", *p) && *p;
             p++, digits++) {
            int d = *p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10;

            if (digits >= 15)
                return -1; /* a chunk of 2^60 bytes is not a body */
            size = size * 16 + (unsigned long long)d;
        }
        if (p == end)
            return 0;
        if (!digits)
            return -1;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (p < end && *p == ';') /* chunk extensions, ignored */
            while (p < end && *p != '\r' && *p != '\n') {
                if ((unsigned char)*p < ' ' && *p != '\t')
                    return -1;
                p++;
            }
        if ((r = line_end(&p, end)) <= 0)
            return r;
        if (size == 0)
            return 0; /* the last chunk; trailers follow */
        if ((unsigned long long)(end - p) < size)
            return 0; /* the rest of this chunk is still to come */
        p += size;
        if ((r = line_end(&p, end)) <= 0)
            return r;
    }
    return 0;
}

/* ---------------------------------------------------------- error answers */

static const char *
reason(unsigned status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

/* Writes the whole JSON error answer for status into buf; returns its
   length, or 0 when it does not fit. */
size_t
srv_format_error(char *buf, size_t size, unsigned status, const char *code,
                 const char *msg)
{
    srv_reply r;
    int hn;
    size_t n = 0;

    srv_reply_errorf(&r, status, code, "%s", msg);
    hn = snprintf(buf, size,
                  "HTTP/1.1 %u %s\r\nContent-Type: application/json\r\n"
                  "Cache-Control: no-store\r\nConnection: close\r\n"
                  "%sContent-Length: %zu\r\n\r\n",
                  status, reason(status),
                  status == 429 || status == 503 ? "Retry-After: 1\r\n" : "",
                  r.size);
    if (hn > 0 && (size_t)hn + r.size <= size) {
        memcpy(buf + hn, r.body, r.size);
        n = (size_t)hn + r.size;
    }
    srv_reply_free(&r);
    return n;
}

void
srv_send_error(int fd, unsigned status, const char *code, const char *msg)
{
    char buf[SRV_ERROR_MAX];
    size_t n = srv_format_error(buf, sizeof buf, status, code, msg);

    /* A socket just accepted has room for these few hundred bytes; if it
       has not, the client was not reading and loses the answer. */
    if (n) {
        ssize_t w = send(fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);

        (void)w;
    }
}

#else
typedef int srv_http_unused; /* ISO C: a translation unit is not empty */
#endif /* BOUTON_SERVER */
