/*
 * _bouton.c -- the CPython extension under the package `bouton`: thin
 * handles over the public C API (<bouton.h>, nothing else), and the
 * conversions between Python and the library.  The Pythonic layer (the
 * classes a user sees, their reprs and HTML) is bouton/__init__.py.
 *
 * Contracts kept here:
 *   - Numbers: Python int of any size in and out, through hexadecimal text
 *     (linear in both directions, and free of Python's limit on decimal
 *     conversions of huge ints).
 *   - Errors: a failed bt_status raises the bouton exception of its name
 *     (ParseError for EPARSE, ...) with the library's one-line message.
 *   - Limits: a tuple built by the package from keyword arguments (see
 *     limits_from()); a timeout in seconds and Ctrl-C reach the library
 *     through bt_limits.interrupt.
 *   - Threads: every computation runs with the GIL released.  The library's
 *     objects are not shared between threads, and a game caches what it
 *     computes, so the objects that share games (a position and its copies,
 *     a game and its sequences, tables and quotients) share one lock (a
 *     Group), held while the library runs on them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bouton.h>

/* ------------------------------------------------------------- errors */

static PyObject *Error; /* bouton.Error: every status */
static PyObject *Status_errors[BT__STATUS_COUNT];

/* Raises the exception of status st with the diagnostic's message (or the
   status's description), its name and offset as attributes.  Returns
   NULL. */
static PyObject *
raise_status(bt_status st, const bt_diag *d)
{
    PyObject *cls =
        (st > BT_OK && st < BT__STATUS_COUNT) ? Status_errors[st] : Error;
    const char *msg =
        (d != NULL && d->message[0]) ? d->message : bt_strerror(st);
    PyObject *exc, *v;
    if (st == BT_ENOMEM && (d == NULL || !d->message[0]))
        return PyErr_NoMemory();
    /* The message is cut at 255 bytes, maybe inside a character. */
    v = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
    if (v == NULL)
        return NULL;
    exc = PyObject_CallOneArg(cls, v);
    Py_DECREF(v);
    if (exc == NULL)
        return NULL;
    v = PyUnicode_FromString(bt_status_name(st));
    if (v == NULL || PyObject_SetAttrString(exc, "status", v) < 0)
        goto fail;
    Py_DECREF(v);
    if (d != NULL && d->has_offset)
        v = PyLong_FromSize_t(d->offset);
    else
        v = Py_NewRef(Py_None);
    if (v == NULL || PyObject_SetAttrString(exc, "offset", v) < 0)
        goto fail;
    Py_DECREF(v);
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
    return NULL;
fail:
    Py_XDECREF(v);
    Py_DECREF(exc);
    return NULL;
}

/* ------------------------------------------------------------ numbers */

/* rop = o, any Python int (or object with __index__).  -1 with an
   exception on failure. */
static int
mpz_from_py(mpz_t rop, PyObject *o)
{
    PyObject *idx = PyNumber_Index(o), *hex = NULL;
    const char *s;
    int overflow, rc = -1;
    long long v;
    if (idx == NULL)
        return -1;
    v = PyLong_AsLongLongAndOverflow(idx, &overflow);
    if (!overflow) {
        if (v == -1 && PyErr_Occurred())
            goto done;
        if (v >= LONG_MIN && v <= LONG_MAX) {
            mpz_set_si(rop, (long)v);
            rc = 0;
            goto done;
        }
    }
    hex = PyNumber_ToBase(idx, 16); /* "0x1f" or "-0x1f" */
    if (hex == NULL || (s = PyUnicode_AsUTF8(hex)) == NULL)
        goto done;
    if (mpz_set_str(rop, s[0] == '-' ? s + 3 : s + 2, 16) != 0) {
        PyErr_SetString(PyExc_ValueError, "bouton: integer conversion");
        goto done;
    }
    if (s[0] == '-')
        mpz_neg(rop, rop);
    rc = 0;
done:
    Py_XDECREF(hex);
    Py_DECREF(idx);
    return rc;
}

static PyObject *
mpz_to_py(const mpz_t z)
{
    char *s;
    void (*freefn)(void *, size_t);
    PyObject *r;
    if (mpz_fits_slong_p(z))
        return PyLong_FromLong(mpz_get_si(z));
    s = mpz_get_str(NULL, 16, z);
    if (s == NULL)
        return PyErr_NoMemory();
    r = PyLong_FromString(s, NULL, 16);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(s, strlen(s) + 1);
    return r;
}

/* A tuple of n Python ints from n mpz. */
static PyObject *
mpz_tuple(const mpz_t *z, size_t n)
{
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    size_t i;
    if (t == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *v = mpz_to_py(z[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, v);
    }
    return t;
}

/* An array of numbers from a sequence of ints: *out (mpz_t[*n], to free
   with mpz_array_free) or -1 with an exception. */
static int
mpz_array_from_py(mpz_t **out, size_t *n, PyObject *seq)
{
    PyObject *fast =
        PySequence_Fast(seq, "bouton: numbers must be a sequence of int");
    Py_ssize_t i, len;
    mpz_t *a;
    *out = NULL;
    *n = 0;
    if (fast == NULL)
        return -1;
    len = PySequence_Fast_GET_SIZE(fast);
    a = PyMem_Calloc(len ? (size_t)len : 1, sizeof *a);
    if (a == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < len; i++)
        mpz_init(a[i]);
    for (i = 0; i < len; i++)
        if (mpz_from_py(a[i], PySequence_Fast_GET_ITEM(fast, i)) < 0) {
            Py_ssize_t j;
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError,
                             "bouton: number %zd of %R is not an int",
                             i + 1, seq);
            }
            for (j = 0; j < len; j++)
                mpz_clear(a[j]);
            PyMem_Free(a);
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    *out = a;
    *n = (size_t)len;
    return 0;
}

static void
mpz_array_free(mpz_t *a, size_t n)
{
    size_t i;
    if (a == NULL)
        return;
    for (i = 0; i < n; i++)
        mpz_clear(a[i]);
    PyMem_Free(a);
}

/* ------------------------------------------------ limits and interrupts */

/*
 * The interrupt of one call.  The library polls it, from the calling
 * thread and, in a threaded Grundy sequence, from its workers.  Only the
 * calling thread looks at Python: every 20 ms it takes the GIL and runs
 * PyErr_CheckSignals(), so that Ctrl-C (a KeyboardInterrupt pending in
 * the main thread) stops the computation with BT_EINTR and the exception
 * is raised when the call returns; it also checks the deadline of a
 * timeout.  The other threads read the verdict.
 */
typedef struct call_ctx {
    unsigned long thread;
    struct timespec next_check;
    double deadline; /* seconds on CLOCK_MONOTONIC; 0: none */
    atomic_int stop; /* 1: a Python exception is pending; 2: timeout */
} call_ctx;

static double
now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
py_interrupt(void *ud)
{
    call_ctx *c = ud;
    struct timespec ts;
    int stop = atomic_load(&c->stop);
    if (stop || PyThread_get_thread_ident() != c->thread)
        return stop;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (ts.tv_sec < c->next_check.tv_sec ||
        (ts.tv_sec == c->next_check.tv_sec &&
         ts.tv_nsec < c->next_check.tv_nsec))
        return 0;
    c->next_check = ts;
    c->next_check.tv_nsec += 20000000L;
    if (c->next_check.tv_nsec >= 1000000000L) {
        c->next_check.tv_sec++;
        c->next_check.tv_nsec -= 1000000000L;
    }
    if (c->deadline > 0 &&
        (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 >= c->deadline) {
        atomic_store(&c->stop, 2);
        return 2;
    }
    {
        PyGILState_STATE g = PyGILState_Ensure();
        if (PyErr_CheckSignals() < 0)
            atomic_store(&c->stop, 1);
        PyGILState_Release(g);
    }
    return atomic_load(&c->stop);
}

/*
 * Fills *lim from the package's limits tuple (max_components, max_digits,
 * max_text, max_search, max_grundy, max_table_piles, max_memory,
 * max_games, timeout), None meaning the library's default, and arms the
 * interrupt of c.  -1 with an exception for a bad value.
 */
static int
limits_from(bt_limits *lim, call_ctx *c, PyObject *t)
{
    size_t *fields[8];
    Py_ssize_t i;
    bt_limits_default(lim);
    memset(c, 0, sizeof *c);
    c->thread = PyThread_get_thread_ident();
    atomic_init(&c->stop, 0);
    lim->interrupt = py_interrupt;
    lim->interrupt_ud = c;
    if (t == NULL || t == Py_None)
        return 0;
    fields[0] = &lim->max_components;
    fields[1] = &lim->max_digits;
    fields[2] = &lim->max_text;
    fields[3] = &lim->max_search;
    fields[4] = &lim->max_grundy;
    fields[5] = &lim->max_table_piles;
    fields[6] = &lim->max_memory;
    fields[7] = &lim->max_games;
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 9) {
        PyErr_SetString(PyExc_TypeError, "bouton: limits must be a 9-tuple");
        return -1;
    }
    for (i = 0; i < 8; i++) {
        static const char *const names[8] = {
            "max_components", "max_digits",      "max_text",   "max_search",
            "max_grundy",     "max_table_piles", "max_memory", "max_games"};
        PyObject *v = PyTuple_GET_ITEM(t, i);
        size_t x;
        if (v == Py_None)
            continue;
        x = PyLong_Check(v) ? PyLong_AsSize_t(v) : (size_t)-1;
        if (x == (size_t)-1) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError,
                         "bouton: %s must be an int from 0 to %zu, not %R",
                         names[i], (size_t)-2, v);
            return -1;
        }
        *fields[i] = x;
    }
    if (PyTuple_GET_ITEM(t, 8) != Py_None) {
        double s = PyFloat_AsDouble(PyTuple_GET_ITEM(t, 8));
        if (s == -1.0 && PyErr_Occurred())
            return -1;
        if (!(s >= 0)) {
            PyErr_SetString(PyExc_ValueError,
                            "bouton: timeout must be a number of seconds >= 0");
            return -1;
        }
        c->deadline = now_seconds() + s;
    }
    return 0;
}

/* Raises what a failed call gives: the pending KeyboardInterrupt when the
   interrupt saw one, else the status's exception. */
static PyObject *
call_failed(bt_status st, const bt_diag *d, const call_ctx *c)
{
    /* An exception the interrupt raised (Ctrl-C) wins, whatever the status:
       the computation may have ended before it looked again. */
    if (PyErr_Occurred())
        return NULL;
    if (st == BT_EINTR && c != NULL && atomic_load(&c->stop) == 2) {
        bt_diag t;
        memset(&t, 0, sizeof t);
        snprintf(t.message, sizeof t.message,
                 "the timeout ran out before the computation ended");
        return raise_status(st, &t);
    }
    return raise_status(st, d);
}

/* -------------------------------------------------------------- groups */

/* A lock shared by the Python objects whose library objects share games. */
typedef struct {
    PyObject_HEAD
    PyThread_type_lock lock;
} GroupObject;

static void
Group_dealloc(GroupObject *g)
{
    if (g->lock != NULL)
        PyThread_free_lock(g->lock);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static PyTypeObject GroupType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bouton._bouton._Group",
    .tp_basicsize = sizeof(GroupObject),
    .tp_dealloc = (destructor)Group_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
};

static GroupObject *
group_new(void)
{
    GroupObject *g = PyObject_New(GroupObject, &GroupType);
    if (g == NULL)
        return NULL;
    g->lock = PyThread_allocate_lock();
    if (g->lock == NULL) {
        Py_DECREF(g);
        PyErr_NoMemory();
        return NULL;
    }
    return g;
}

/*
 * The library runs with the GIL released and the group's lock held:
 *
 *     PyThreadState *ts = compute_begin(grp);
 *     st = bt_...(...);
 *     compute_end(grp, ts);
 */
static PyThreadState *
compute_begin(GroupObject *g)
{
    PyThreadState *ts = PyEval_SaveThread();
    PyThread_acquire_lock(g->lock, WAIT_LOCK);
    return ts;
}

static void
compute_end(GroupObject *g, PyThreadState *ts)
{
    PyThread_release_lock(g->lock);
    PyEval_RestoreThread(ts);
}

/* The same with the locks of two groups, taken in the order of their
   addresses (so that two threads cannot each hold one and wait for the
   other); once when they are the same group. */
static PyThreadState *
compute_begin2(GroupObject *a, GroupObject *b)
{
    PyThreadState *ts = PyEval_SaveThread();
    PyThread_acquire_lock(a < b ? a->lock : b->lock, WAIT_LOCK);
    if (a != b)
        PyThread_acquire_lock(a < b ? b->lock : a->lock, WAIT_LOCK);
    return ts;
}

static void
compute_end2(GroupObject *a, GroupObject *b, PyThreadState *ts)
{
    if (a != b)
        PyThread_release_lock(b->lock);
    PyThread_release_lock(a->lock);
    PyEval_RestoreThread(ts);
}

/* Takes the group's lock with the GIL held (waiting with the GIL released
   while another thread computes): for the quick reads of an object that
   another thread may be computing on, and for the frees of a dealloc. */
static void
group_lock(GroupObject *g)
{
    if (!PyThread_acquire_lock(g->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(g->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

static void
group_unlock(GroupObject *g)
{
    PyThread_release_lock(g->lock);
}

/* --------------------------------------------------------------- games */

typedef struct {
    PyObject_HEAD
    bt_game *g;
    GroupObject *grp;
} GameObject;

static PyTypeObject GameType;

static PyObject *
Game_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char kw_spec[] = "spec", *kwlist[] = {kw_spec, NULL};
    const char *spec;
    GameObject *self;
    bt_diag d;
    bt_status st;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s:Game", kwlist, &spec))
        return NULL;
    self = (GameObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->grp = group_new();
    if (self->grp == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    memset(&d, 0, sizeof d);
    st = bt_game_new(&self->g, spec, &d);
    if (st != BT_OK) {
        Py_DECREF(self);
        return raise_status(st, &d);
    }
    return (PyObject *)self;
}

static void
Game_dealloc(GameObject *self)
{
    if (self->g != NULL) {
        group_lock(self->grp);
        bt_game_free(self->g);
        group_unlock(self->grp);
    }
    Py_XDECREF(self->grp);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Game_get_spec(GameObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(bt_game_spec(self->g));
}

static PyObject *
Game_get_family(GameObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(bt_game_family(self->g));
}

static PyObject *
Game_get_arity(GameObject *self, void *c)
{
    (void)c;
    return PyLong_FromUnsignedLong(bt_game_arity(self->g));
}

static PyObject *
Game_get_board(GameObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(bt_board_name(bt_game_board(self->g)));
}

/* The first coin's number of each side of a coin game: (x,) for a row,
   (x, y) for a grid, () for piles. */
static PyObject *
Game_get_first_coin(GameObject *self, void *c)
{
    bt_board b = bt_game_board(self->g);
    (void)c;
    if (b == BT_BOARD_ROW)
        return Py_BuildValue("(k)", bt_game_board_first(self->g, 0));
    if (b == BT_BOARD_GRID)
        return Py_BuildValue("(kk)", bt_game_board_first(self->g, 0),
                             bt_game_board_first(self->g, 1));
    return PyTuple_New(0);
}

static PyObject *
Game_get_rules(GameObject *self, void *c)
{
    char *s = bt_game_rules(self->g);
    PyObject *r;
    (void)c;
    if (s == NULL)
        return PyErr_NoMemory();
    r = PyUnicode_FromString(s);
    free(s);
    return r;
}

static PyGetSetDef Game_getset[] = {
    {"spec", (getter)Game_get_spec, NULL, "the canonical text of the game",
     NULL},
    {"family", (getter)Game_get_family, NULL, "the family's name", NULL},
    {"arity", (getter)Game_get_arity, NULL,
     "numbers per component: 1 (heaps), 2 (Wythoff pairs), 0 (any)", NULL},
    {"rules", (getter)Game_get_rules, NULL, "the rules in one line", NULL},
    {"board", (getter)Game_get_board, NULL,
     "how it is drawn: 'piles', or coins in a 'row' or on a 'grid'", NULL},
    {"first_coin", (getter)Game_get_first_coin, NULL,
     "a coin game's first coin of each side: (x,) or (x, y); () for piles",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bouton._bouton.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_dealloc = (destructor)Game_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Game(spec): a game of the library's registry, e.g. 'kayles'.",
    .tp_new = Game_new,
    .tp_getset = Game_getset,
};

static int
game_arg(PyObject *o, void *out)
{
    if (!PyObject_TypeCheck(o, &GameType)) {
        PyErr_Format(PyExc_TypeError, "bouton: expected a Game, not %.80s",
                     Py_TYPE(o)->tp_name);
        return 0;
    }
    *(GameObject **)out = (GameObject *)o;
    return 1;
}

/* The families of the registry: a list of dicts. */
static PyObject *
mod_families(PyObject *m, PyObject *noargs)
{
    size_t i, n = bt_family_count();
    PyObject *l = PyList_New(0);
    (void)m;
    (void)noargs;
    if (l == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        const bt_family_info *f = bt_family(i);
        PyObject *d =
            Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:s,s:I,s:s}", "name",
                          f->name, "syntax", f->syntax, "summary", f->summary,
                          "aliases", f->aliases, "title", f->title, "example",
                          f->example, "arity", (unsigned)bt_family_arity(i),
                          "board", bt_board_name(bt_family_board(i)));
        if (d == NULL || PyList_Append(l, d) < 0) {
            Py_XDECREF(d);
            Py_DECREF(l);
            return NULL;
        }
        Py_DECREF(d);
    }
    return l;
}

/* ----------------------------------------------------------- positions */

typedef struct {
    PyObject_HEAD
    bt_position *p;
    GroupObject *grp;
} PositionObject;

static PyTypeObject PositionType;

static void
Position_dealloc(PositionObject *self)
{
    if (self->p != NULL) {
        group_lock(self->grp);
        bt_position_free(self->p);
        group_unlock(self->grp);
    }
    Py_XDECREF(self->grp);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A handle for p, in group grp (a new group when NULL).  Takes p. */
static PyObject *
position_wrap(bt_position *p, GroupObject *grp)
{
    PositionObject *o = PyObject_New(PositionObject, &PositionType);
    if (o == NULL) {
        bt_position_free(p);
        return NULL;
    }
    o->p = p;
    o->grp = grp != NULL ? (GroupObject *)Py_NewRef(grp) : group_new();
    if (o->grp == NULL) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

static int
position_arg(PyObject *o, void *out)
{
    if (!PyObject_TypeCheck(o, &PositionType)) {
        PyErr_Format(PyExc_TypeError,
                     "bouton: expected a position handle, not %.80s",
                     Py_TYPE(o)->tp_name);
        return 0;
    }
    *(PositionObject **)out = (PositionObject *)o;
    return 1;
}

/* parse(text, default_game_spec or None, limits) -> handle.  The games are
   the position's own (a new group). */
static PyObject *
mod_parse(PyObject *m, PyObject *args)
{
    const char *text, *dflt = NULL;
    PyObject *limits;
    bt_game *g = NULL;
    bt_position *p = NULL;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st = BT_OK;
    (void)m;
    if (!PyArg_ParseTuple(args, "szO", &text, &dflt, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    Py_BEGIN_ALLOW_THREADS
    if (dflt != NULL)
        st = bt_game_new(&g, dflt, &d);
    if (st == BT_OK)
        st = bt_position_parse(&p, text, g, &lim, &d);
    bt_game_free(g);
    Py_END_ALLOW_THREADS
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    return position_wrap(p, NULL);
}

/*
 * build(game, components, limits) -> handle: each component a sequence of
 * ints.  game is a Game, whose library game (and its caches: a Grundy
 * sequence proved once) the position shares, in the Game's group; or a
 * text, for a game of the position's own (a new group).
 */
static PyObject *
mod_build(PyObject *m, PyObject *args)
{
    PyObject *game, *comps, *limits, *fast = NULL, *r = NULL;
    GroupObject *grp = NULL;
    bt_game *g = NULL;
    bt_position *p = NULL;
    mpz_t **nums = NULL;
    size_t *counts = NULL;
    Py_ssize_t i, k = 0;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st = BT_OK;
    (void)m;
    if (!PyArg_ParseTuple(args, "OOO", &game, &comps, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    /* The numbers first, with the GIL; then the library, under the lock. */
    fast = PySequence_Fast(comps, "bouton: components must be a sequence");
    if (fast == NULL)
        return NULL;
    k = PySequence_Fast_GET_SIZE(fast);
    nums = PyMem_Calloc(k ? (size_t)k : 1, sizeof *nums);
    counts = PyMem_Calloc(k ? (size_t)k : 1, sizeof *counts);
    if (nums == NULL || counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < k; i++)
        if (mpz_array_from_py(&nums[i], &counts[i],
                              PySequence_Fast_GET_ITEM(fast, i)) < 0)
            goto done;
    if (PyObject_TypeCheck(game, &GameType)) {
        grp = (GroupObject *)Py_NewRef(((GameObject *)game)->grp);
        group_lock(grp);
        g = bt_game_ref(((GameObject *)game)->g);
    } else {
        const char *spec = PyUnicode_AsUTF8(game);
        if (spec == NULL || (grp = group_new()) == NULL)
            goto done;
        group_lock(grp);
        st = bt_game_new(&g, spec, &d);
    }
    if (st == BT_OK)
        st = bt_position_new(&p);
    for (i = 0; st == BT_OK && i < k; i++)
        st = bt_position_add_n(p, g, (const mpz_t *)nums[i], counts[i], &lim,
                               &d);
    if (st != BT_OK) {
        bt_position_free(p);
        p = NULL;
    }
    bt_game_free(g);
    group_unlock(grp);
    r = st == BT_OK ? position_wrap(p, grp) : raise_status(st, &d);
done:
    for (i = 0; nums != NULL && i < k; i++)
        mpz_array_free(nums[i], counts[i]);
    PyMem_Free(nums);
    PyMem_Free(counts);
    Py_XDECREF(grp);
    Py_DECREF(fast);
    return r;
}

static PyObject *
mod_format(PyObject *m, PyObject *args)
{
    PositionObject *po;
    char *s;
    PyObject *r;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&", position_arg, &po))
        return NULL;
    s = bt_position_format(po->p);
    if (s == NULL)
        return PyErr_NoMemory();
    r = PyUnicode_FromString(s);
    free(s);
    return r;
}

static PyObject *
mod_size(PyObject *m, PyObject *args)
{
    PositionObject *po;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&", position_arg, &po))
        return NULL;
    return PyLong_FromSize_t(bt_position_size(po->p));
}

/* components(handle) -> list of (game spec, tuple of ints). */
static PyObject *
mod_components(PyObject *m, PyObject *args)
{
    PositionObject *po;
    PyObject *l;
    size_t i, n;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&", position_arg, &po))
        return NULL;
    n = bt_position_size(po->p);
    l = PyList_New((Py_ssize_t)n);
    if (l == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *nums =
            mpz_tuple(bt_position_nums(po->p, i), bt_position_count(po->p, i));
        PyObject *t =
            nums == NULL
                ? NULL
                : Py_BuildValue("(sN)",
                                bt_game_spec(bt_position_game(po->p, i)), nums);
        if (t == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, t);
    }
    return l;
}

static PyObject *
mod_equal(PyObject *m, PyObject *args)
{
    PositionObject *a, *b;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&O&", position_arg, &a, position_arg, &b))
        return NULL;
    return PyBool_FromLong(bt_position_equal(a->p, b->p));
}

/* A Python move: (component, to tuple, text). */
static PyObject *
move_to_py(const bt_move *mv)
{
    PyObject *to = mpz_tuple((const mpz_t *)mv->to, mv->nto);
    if (to == NULL)
        return NULL;
    return Py_BuildValue("(nNs)", (Py_ssize_t)mv->component, to,
                         mv->text != NULL ? mv->text : "");
}

/* moves(handle, limits) -> list of every legal move. */
static PyObject *
mod_moves(PyObject *m, PyObject *args)
{
    PositionObject *po;
    PyObject *limits, *l;
    bt_move *mv = NULL;
    size_t n = 0, i;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&O", position_arg, &po, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    {
        PyThreadState *ts = compute_begin(po->grp);
        st = bt_position_moves(&mv, &n, po->p, &lim, &d);
        compute_end(po->grp, ts);
    }
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    l = PyList_New((Py_ssize_t)n);
    for (i = 0; l != NULL && i < n; i++) {
        PyObject *t = move_to_py(&mv[i]);
        if (t == NULL)
            Py_CLEAR(l);
        else
            PyList_SET_ITEM(l, (Py_ssize_t)i, t);
    }
    bt_moves_free(mv, n);
    return l;
}

/* apply(handle, component, to) -> a new handle (same group): component
   replaced by the numbers of `to`, in its own game. */
static PyObject *
mod_apply(PyObject *m, PyObject *args)
{
    PositionObject *po;
    Py_ssize_t comp;
    PyObject *tolist;
    bt_position *q = NULL;
    mpz_t *to;
    size_t nto;
    bt_status st;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&nO", position_arg, &po, &comp, &tolist))
        return NULL;
    if (comp < 0 || (size_t)comp >= bt_position_size(po->p)) {
        PyErr_Format(PyExc_IndexError,
                     "bouton: no component %zd in a position of %zu", comp,
                     bt_position_size(po->p));
        return NULL;
    }
    if (mpz_array_from_py(&to, &nto, tolist) < 0)
        return NULL;
    {
        PyThreadState *ts = compute_begin(po->grp);
        st = bt_position_copy(&q, po->p);
        if (st == BT_OK)
            st = bt_position_replace(q, (size_t)comp,
                                     bt_position_game(q, (size_t)comp),
                                     (const mpz_t *)to, nto);
        if (st != BT_OK) {
            bt_position_free(q);
            q = NULL;
        }
        compute_end(po->grp, ts);
    }
    mpz_array_free(to, nto);
    if (st != BT_OK)
        return raise_status(st, NULL);
    return position_wrap(q, po->grp);
}

/* find_move(from, to, limits) -> the move from `from` to `to`. */
static PyObject *
mod_find_move(PyObject *m, PyObject *args)
{
    PositionObject *a, *b;
    PyObject *limits, *r;
    bt_move *mv = NULL;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&O&O", position_arg, &a, position_arg, &b,
                          &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    {
        PyThreadState *ts = compute_begin2(a->grp, b->grp);
        st = bt_position_find_move(&mv, a->p, b->p, &lim, &d);
        compute_end2(a->grp, b->grp, ts);
    }
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    r = move_to_py(mv);
    bt_moves_free(mv, 1);
    return r;
}

static PyObject *
mod_is_terminal(PyObject *m, PyObject *args)
{
    PositionObject *po;
    int t;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&", position_arg, &po))
        return NULL;
    {
        PyThreadState *ts = compute_begin(po->grp);
        t = bt_position_is_terminal(po->p);
        compute_end(po->grp, ts);
    }
    return PyBool_FromLong(t);
}

static PyTypeObject PositionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bouton._bouton.PositionHandle",
    .tp_basicsize = sizeof(PositionObject),
    .tp_dealloc = (destructor)Position_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A position of the library (bouton.Position wraps it).",
};

/* ------------------------------------------------------------ analysis */

/*
 * analyze(handle, misere, explain, remoteness, limits) -> dict with
 * outcome, misere, grundy, component_grundy, moves, moves_complete,
 * moves_note, explanation, remoteness, remoteness_reason.
 */
static PyObject *
mod_analyze(PyObject *m, PyObject *args)
{
    PositionObject *po;
    int misere, explain, remote;
    PyObject *limits, *r = NULL, *moves = NULL, *cg = NULL, *gv = NULL,
                      *rem = NULL;
    bt_analysis *a = NULL;
    unsigned flags = 0;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    size_t i, n;
    mpz_t z;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&pppO", position_arg, &po, &misere, &explain,
                          &remote, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    flags = (misere ? BT_MISERE : 0u) | (explain ? BT_EXPLAIN : 0u) |
            (remote ? BT_REMOTENESS : 0u);
    memset(&d, 0, sizeof d);
    {
        PyThreadState *ts = compute_begin(po->grp);
        st = bt_analyze(&a, po->p, flags, &lim, &d);
        compute_end(po->grp, ts);
    }
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    mpz_init(z);
    if (bt_analysis_grundy(z, a) == BT_OK) {
        gv = mpz_to_py(z);
        if (gv == NULL)
            goto done;
        n = bt_position_size(po->p);
        cg = PyList_New((Py_ssize_t)n);
        for (i = 0; cg != NULL && i < n; i++) {
            PyObject *v;
            if (bt_analysis_component_grundy(z, a, i) == BT_OK)
                v = mpz_to_py(z);
            else
                v = Py_NewRef(Py_None);
            if (v == NULL)
                Py_CLEAR(cg);
            else
                PyList_SET_ITEM(cg, (Py_ssize_t)i, v);
        }
        if (cg == NULL)
            goto done;
    } else {
        gv = Py_NewRef(Py_None);
        cg = Py_NewRef(Py_None);
    }
    n = bt_analysis_move_count(a);
    moves = PyList_New((Py_ssize_t)n);
    for (i = 0; moves != NULL && i < n; i++) {
        PyObject *t = move_to_py(bt_analysis_move(a, i));
        if (t == NULL)
            Py_CLEAR(moves);
        else
            PyList_SET_ITEM(moves, (Py_ssize_t)i, t);
    }
    if (moves == NULL)
        goto done;
    if (bt_analysis_remoteness_mpz(z, a) == BT_OK)
        rem = mpz_to_py(z);
    else
        rem = Py_NewRef(Py_None);
    if (rem == NULL)
        goto done;
    r = Py_BuildValue("{s:s,s:O,s:O,s:O,s:O,s:O,s:z,s:z,s:O,s:z}", "outcome",
                      bt_analysis_outcome(a) == BT_P ? "P" : "N", "misere",
                      bt_analysis_is_misere(a) ? Py_True : Py_False, "grundy",
                      gv, "component_grundy", cg, "moves", moves,
                      "moves_complete",
                      bt_analysis_moves_complete(a) ? Py_True : Py_False,
                      "moves_note", bt_analysis_moves_note(a), "explanation",
                      bt_analysis_explanation(a), "remoteness", rem,
                      "remoteness_reason", bt_analysis_remoteness_reason(a));
done:
    Py_XDECREF(gv);
    Py_XDECREF(cg);
    Py_XDECREF(moves);
    Py_XDECREF(rem);
    mpz_clear(z);
    bt_analysis_free(a);
    return r;
}

/* remoteness(handle, misere, limits) -> int */
static PyObject *
mod_remoteness(PyObject *m, PyObject *args)
{
    PositionObject *po;
    int misere;
    PyObject *limits, *r;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    mpz_t z;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&pO", position_arg, &po, &misere, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    mpz_init(z);
    {
        PyThreadState *ts = compute_begin(po->grp);
        st = bt_remoteness(z, po->p, misere, &lim, &d);
        compute_end(po->grp, ts);
    }
    r = st == BT_OK && !PyErr_Occurred() ? mpz_to_py(z)
                                         : call_failed(st, &d, &c);
    mpz_clear(z);
    return r;
}

/* opponent_move(handle, misere, level, rng state, limits) ->
   (move, (outcome_known, outcome, remoteness_known, rule), rng state) */
static PyObject *
mod_opponent_move(PyObject *m, PyObject *args)
{
    PositionObject *po;
    int misere;
    const char *level_text;
    unsigned long long state;
    PyObject *limits, *mv_py;
    bt_level level;
    bt_play_info info;
    bt_move *mv = NULL;
    uint64_t rng;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&psKO", position_arg, &po, &misere,
                          &level_text, &state, &limits))
        return NULL;
    memset(&d, 0, sizeof d);
    st = bt_level_parse(&level, level_text, &d);
    if (st != BT_OK)
        return raise_status(st, &d);
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    rng = (uint64_t)state;
    {
        PyThreadState *ts = compute_begin(po->grp);
        st = bt_opponent_play(&mv, &info, po->p, misere, level, &rng, &lim, &d);
        compute_end(po->grp, ts);
    }
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    mv_py = move_to_py(mv);
    bt_moves_free(mv, 1);
    if (mv_py == NULL)
        return NULL;
    return Py_BuildValue("(N(OsOs)K)", mv_py,
                         info.outcome_known ? Py_True : Py_False,
                         info.outcome == BT_P ? "P" : "N",
                         info.remoteness_known ? Py_True : Py_False,
                         bt_rule_name(info.rule), (unsigned long long)rng);
}

/* random_position(game, k, min, max, rng state, limits) -> (handle, state) */
static PyObject *
mod_random_position(PyObject *m, PyObject *args)
{
    const char *spec;
    Py_ssize_t k;
    PyObject *pmin, *pmax, *limits, *h;
    unsigned long long state;
    bt_game *g = NULL;
    bt_position *p = NULL;
    uint64_t rng;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    mpz_t lo, hi;
    (void)m;
    if (!PyArg_ParseTuple(args, "snOOKO", &spec, &k, &pmin, &pmax, &state,
                          &limits))
        return NULL;
    if (k < 0) {
        PyErr_SetString(PyExc_ValueError, "bouton: k must be >= 0");
        return NULL;
    }
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    mpz_inits(lo, hi, NULL);
    if (mpz_from_py(lo, pmin) < 0 || mpz_from_py(hi, pmax) < 0) {
        mpz_clears(lo, hi, NULL);
        return NULL;
    }
    memset(&d, 0, sizeof d);
    rng = (uint64_t)state;
    st = bt_game_new(&g, spec, &d);
    if (st == BT_OK) {
        Py_BEGIN_ALLOW_THREADS
        st = bt_position_random(&p, g, (size_t)k, lo, hi, &rng, &lim, &d);
        Py_END_ALLOW_THREADS
    }
    bt_game_free(g);
    mpz_clears(lo, hi, NULL);
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    h = position_wrap(p, NULL);
    if (h == NULL)
        return NULL;
    return Py_BuildValue("(NK)", h, (unsigned long long)rng);
}

/* ------------------------------------------------- numbers of the games */

static PyObject *
mod_nim_sum(PyObject *m, PyObject *args)
{
    PyObject *pa, *pb, *r = NULL;
    mpz_t a, b;
    (void)m;
    if (!PyArg_ParseTuple(args, "OO", &pa, &pb))
        return NULL;
    mpz_inits(a, b, NULL);
    if (mpz_from_py(a, pa) == 0 && mpz_from_py(b, pb) == 0) {
        if (mpz_sgn(a) < 0 || mpz_sgn(b) < 0)
            PyErr_SetString(PyExc_ValueError,
                            "bouton.nim_sum: the numbers must be >= 0");
        else {
            bt_nim_sum(a, a, b);
            r = mpz_to_py(a);
        }
    }
    mpz_clears(a, b, NULL);
    return r;
}

/* count(game, k, min, max, misere, ordered, limits) -> (positions, p) */
static PyObject *
mod_count(PyObject *m, PyObject *args)
{
    GameObject *go;
    Py_ssize_t k;
    int misere, ordered;
    PyObject *pmin, *pmax, *limits, *r = NULL;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    mpz_t lo, hi, pos, pp;
    unsigned flags;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&nOOppO", game_arg, &go, &k, &pmin, &pmax,
                          &misere, &ordered, &limits))
        return NULL;
    if (k < 0) {
        PyErr_SetString(PyExc_ValueError, "bouton.count: piles must be >= 0");
        return NULL;
    }
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    flags = (misere ? BT_MISERE : 0u) | (ordered ? BT_COUNT_ORDERED : 0u);
    mpz_inits(lo, hi, pos, pp, NULL);
    if (mpz_from_py(lo, pmin) == 0 && mpz_from_py(hi, pmax) == 0) {
        memset(&d, 0, sizeof d);
        {
            PyThreadState *ts = compute_begin(go->grp);
            st = bt_game_count(pos, pp, NULL, go->g, (size_t)k, lo, hi, flags,
                               &lim, &d);
            compute_end(go->grp, ts);
        }
        if (st != BT_OK || PyErr_Occurred())
            call_failed(st, &d, &c);
        else
            r = Py_BuildValue("(NN)", mpz_to_py(pos), mpz_to_py(pp));
    }
    mpz_clears(lo, hi, pos, pp, NULL);
    return r;
}

/* wythoff_pair(game, n, misere, limits) -> (lo, hi) */
static PyObject *
mod_wythoff_pair(PyObject *m, PyObject *args)
{
    GameObject *go;
    PyObject *pn, *limits, *r = NULL;
    int misere;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    mpz_t n, lo, hi;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&OpO", game_arg, &go, &pn, &misere, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    mpz_inits(n, lo, hi, NULL);
    if (mpz_from_py(n, pn) == 0) {
        memset(&d, 0, sizeof d);
        {
            PyThreadState *ts = compute_begin(go->grp);
            st = bt_wythoff_pair(lo, hi, go->g, misere, n, &lim, &d);
            compute_end(go->grp, ts);
        }
        if (st != BT_OK || PyErr_Occurred())
            call_failed(st, &d, &c);
        else
            r = Py_BuildValue("(NN)", mpz_to_py(lo), mpz_to_py(hi));
    }
    mpz_clears(n, lo, hi, NULL);
    return r;
}

/* wythoff_index(game, x, misere, limits) -> (n, member, lo, hi) */
static PyObject *
mod_wythoff_index(PyObject *m, PyObject *args)
{
    GameObject *go;
    PyObject *px, *limits, *r = NULL;
    int misere;
    bt_wythoff_member mem = BT_WYTHOFF_LOWER;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    mpz_t x, n, lo, hi;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&OpO", game_arg, &go, &px, &misere, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    mpz_inits(x, n, lo, hi, NULL);
    if (mpz_from_py(x, px) == 0) {
        memset(&d, 0, sizeof d);
        {
            PyThreadState *ts = compute_begin(go->grp);
            st = bt_wythoff_index_of(n, &mem, lo, hi, go->g, misere, x, &lim,
                                     &d);
            compute_end(go->grp, ts);
        }
        if (st != BT_OK || PyErr_Occurred())
            call_failed(st, &d, &c);
        else
            r = Py_BuildValue("(NsNN)", mpz_to_py(n),
                              mem == BT_WYTHOFF_LOWER ? "lower" : "upper",
                              mpz_to_py(lo), mpz_to_py(hi));
    }
    mpz_clears(x, n, lo, hi, NULL);
    return r;
}

/*
 * wythoff_table(game, below, limits) -> bytes: G(x, y) for x, y < below of
 * a game of the Wythoff family, row by row, as native uint16 (the package
 * shows them as a below x below memoryview, or a NumPy array).
 */
static PyObject *
mod_wythoff_table(PyObject *m, PyObject *args)
{
    GameObject *go;
    Py_ssize_t below;
    PyObject *limits, *out;
    bt_wythoff_sg *t = NULL;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    uint16_t *cells;
    size_t x, y, n;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&nO", game_arg, &go, &below, &limits))
        return NULL;
    if (below < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "bouton.wythoff_grundy_table: below must be >= 0");
        return NULL;
    }
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    /* The copy handed to Python is charged like the table itself. */
    if (lim.max_memory != 0 &&
        (size_t)below > lim.max_memory / sizeof *cells / (size_t)below) {
        snprintf(d.message, sizeof d.message,
                 "a Grundy table of side %zd takes more than max_memory "
                 "(%zu bytes)",
                 below, lim.max_memory);
        return raise_status(BT_ELIMIT, &d);
    }
    {
        PyThreadState *ts = compute_begin(go->grp);
        st = bt_wythoff_sg_new(&t, go->g, (size_t)below, &lim, &d);
        compute_end(go->grp, ts);
    }
    if (st != BT_OK || PyErr_Occurred()) {
        bt_wythoff_sg_free(t);
        return call_failed(st, &d, &c);
    }
    n = bt_wythoff_sg_below(t);
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * n * sizeof *cells));
    if (out == NULL) {
        bt_wythoff_sg_free(t);
        return NULL;
    }
    cells = (uint16_t *)PyBytes_AS_STRING(out);
    for (x = 0; x < n; x++)
        for (y = 0; y < n; y++)
            cells[x * n + y] = (uint16_t)bt_wythoff_sg_get(t, x, y);
    bt_wythoff_sg_free(t);
    return out;
}

/* ------------------------------------------------------------- nimbers */

/*
 * The nimber operations of <bouton/nimber.h>, at any size: pure functions
 * of their numbers (no object of the library is shared), so they run with
 * the GIL released and no lock.
 */
typedef bt_status (*nimber_op2)(mpz_t r, const mpz_t a, const mpz_t b,
                                const bt_limits *lim, bt_diag *diag);
typedef bt_status (*nimber_op1)(mpz_t r, const mpz_t a, const bt_limits *lim,
                                bt_diag *diag);

static PyObject *
nimber_run(PyObject *args, nimber_op1 op1, nimber_op2 op2)
{
    PyObject *pa, *pb = NULL, *limits, *r = NULL;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    mpz_t x, a, b;
    if (op2 != NULL ? !PyArg_ParseTuple(args, "OOO", &pa, &pb, &limits)
                    : !PyArg_ParseTuple(args, "OO", &pa, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    mpz_inits(x, a, b, NULL);
    if (mpz_from_py(a, pa) == 0 && (pb == NULL || mpz_from_py(b, pb) == 0)) {
        memset(&d, 0, sizeof d);
        Py_BEGIN_ALLOW_THREADS
        st = op2 != NULL ? op2(x, a, b, &lim, &d) : op1(x, a, &lim, &d);
        Py_END_ALLOW_THREADS
        if (st != BT_OK || PyErr_Occurred())
            call_failed(st, &d, &c);
        else
            r = mpz_to_py(x);
    }
    mpz_clears(x, a, b, NULL);
    return r;
}

static PyObject *
mod_nimber_mul(PyObject *m, PyObject *args)
{
    (void)m;
    return nimber_run(args, NULL, bt_nimber_mul);
}

static PyObject *
mod_nimber_pow(PyObject *m, PyObject *args)
{
    (void)m;
    return nimber_run(args, NULL, bt_nimber_pow);
}

static PyObject *
mod_nimber_inv(PyObject *m, PyObject *args)
{
    (void)m;
    return nimber_run(args, bt_nimber_inv, NULL);
}

static PyObject *
mod_nimber_sqrt(PyObject *m, PyObject *args)
{
    (void)m;
    return nimber_run(args, bt_nimber_sqrt, NULL);
}

/* nimber_order(x) and nimber_log(g, x): below 2^64 (ERANGE past it). */
static PyObject *
mod_nimber_order(PyObject *m, PyObject *arg)
{
    PyObject *r = NULL;
    bt_diag d;
    bt_status st;
    mpz_t x, o;
    (void)m;
    mpz_inits(x, o, NULL);
    if (mpz_from_py(x, arg) == 0) {
        memset(&d, 0, sizeof d);
        st = bt_nimber_order(o, x, &d);
        r = st == BT_OK ? mpz_to_py(o) : raise_status(st, &d);
    }
    mpz_clears(x, o, NULL);
    return r;
}

static PyObject *
mod_nimber_log(PyObject *m, PyObject *args)
{
    PyObject *pg, *px, *r = NULL;
    bt_diag d;
    bt_status st;
    mpz_t g, x, e;
    (void)m;
    if (!PyArg_ParseTuple(args, "OO", &pg, &px))
        return NULL;
    mpz_inits(g, x, e, NULL);
    if (mpz_from_py(g, pg) == 0 && mpz_from_py(x, px) == 0) {
        memset(&d, 0, sizeof d);
        Py_BEGIN_ALLOW_THREADS
        st = bt_nimber_log(e, g, x, &d);
        Py_END_ALLOW_THREADS
        r = st == BT_OK ? mpz_to_py(e) : raise_status(st, &d);
    }
    mpz_clears(g, x, e, NULL);
    return r;
}

static PyObject *
mod_nimber_explain(PyObject *m, PyObject *args)
{
    PyObject *pa, *pb, *r = NULL;
    char *text = NULL;
    bt_diag d;
    bt_status st;
    mpz_t a, b;
    (void)m;
    if (!PyArg_ParseTuple(args, "OO", &pa, &pb))
        return NULL;
    mpz_inits(a, b, NULL);
    if (mpz_from_py(a, pa) == 0 && mpz_from_py(b, pb) == 0) {
        memset(&d, 0, sizeof d);
        st = bt_nimber_mul_explain(&text, a, b, &d);
        r = st == BT_OK ? PyUnicode_FromString(text) : raise_status(st, &d);
        free(text);
    }
    mpz_clears(a, b, NULL);
    return r;
}

/* ---------------------------------------------------- Grundy sequences */

/*
 * bouton.GrundySequence's base: a bt_sequence, exported through the buffer
 * protocol as the uint16 values G(0..len-1) (format 'H'): zero-copy when
 * the engine keeps two bytes a value; while it keeps one (every value
 * below 256, bt_sequence_width), a uint16 copy made for the first view
 * and freed with the last.  Computing again may move the values, so it
 * is refused (BufferError) while a view is held, as bytearray refuses to
 * resize.
 */
typedef struct {
    PyObject_HEAD
    bt_sequence *s;
    GameObject *game;
    Py_ssize_t exports;
    uint16_t *copy; /* the views' uint16 values, while exports > 0 and the
                       engine's are one byte each */
    int busy; /* a thread computes values (they may move) */
    Py_ssize_t shape;
    Py_ssize_t stride;
} SequenceObject;

static PyObject *
Sequence_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char kw_game[] = "game", kw_method[] = "method";
    static char *kwlist[] = {kw_game, kw_method, NULL};
    GameObject *go;
    const char *method = "auto";
    SequenceObject *self;
    bt_seq_method meth;
    bt_diag d;
    bt_status st;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|s", kwlist, game_arg, &go,
                                     &method))
        return NULL;
    if (strcmp(method, "auto") == 0)
        meth = BT_SEQ_AUTO;
    else if (strcmp(method, "plain") == 0)
        meth = BT_SEQ_PLAIN;
    else if (strcmp(method, "rare") == 0)
        meth = BT_SEQ_RARE;
    else {
        PyErr_Format(PyExc_ValueError,
                     "bouton: method '%s': expected auto, plain or rare",
                     method);
        return NULL;
    }
    self = (SequenceObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    memset(&d, 0, sizeof d);
    group_lock(go->grp);
    st = bt_sequence_new(&self->s, go->g, meth, &d);
    group_unlock(go->grp);
    if (st != BT_OK) {
        Py_DECREF(self);
        return raise_status(st, &d);
    }
    self->game = (GameObject *)Py_NewRef(go);
    return (PyObject *)self;
}

static void
Sequence_dealloc(SequenceObject *self)
{
    if (self->s != NULL) {
        group_lock(self->game->grp);
        bt_sequence_free(self->s);
        group_unlock(self->game->grp);
    }
    PyMem_Free(self->copy);
    Py_XDECREF(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static char format_u16[] = "H";

static int
Sequence_getbuffer(SequenceObject *self, Py_buffer *view, int flags)
{
    size_t n;
    const uint16_t *values;
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE || self->busy) {
        PyErr_SetString(PyExc_BufferError,
                        self->busy ? "bouton: the sequence is being computed"
                                   : "bouton: a Grundy sequence is read-only");
        view->obj = NULL;
        return -1;
    }
    group_lock(self->game->grp);
    n = bt_sequence_length(self->s);
    if (bt_sequence_width(self->s) == 2) {
        values = bt_sequence_data(self->s);
    } else {
        if (self->exports == 0 && n > 0) {
            const uint8_t *b = bt_sequence_data(self->s);
            size_t i;
            PyMem_Free(self->copy);
            self->copy = PyMem_Malloc(n * sizeof *self->copy);
            if (self->copy != NULL)
                for (i = 0; i < n; i++)
                    self->copy[i] = b[i];
        }
        values = self->copy;
        if (n > 0 && values == NULL) {
            group_unlock(self->game->grp);
            PyErr_NoMemory();
            view->obj = NULL;
            return -1;
        }
    }
    group_unlock(self->game->grp);
    view->buf = n ? (void *)values : (void *)format_u16;
    view->obj = Py_NewRef(self);
    view->len = (Py_ssize_t)(n * sizeof(uint16_t));
    view->readonly = 1;
    view->itemsize = sizeof(uint16_t);
    view->format = (flags & PyBUF_FORMAT) ? format_u16 : NULL;
    view->ndim = 1;
    self->shape = (Py_ssize_t)n;
    self->stride = sizeof(uint16_t);
    view->shape = (flags & PyBUF_ND) ? &self->shape : NULL;
    view->strides =
        (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? &self->stride : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    self->exports++;
    return 0;
}

static void
Sequence_releasebuffer(SequenceObject *self, Py_buffer *view)
{
    (void)view;
    if (--self->exports == 0) {
        PyMem_Free(self->copy);
        self->copy = NULL;
    }
}

static PyBufferProcs Sequence_as_buffer = {
    (getbufferproc)Sequence_getbuffer,
    (releasebufferproc)Sequence_releasebuffer,
};

static int
sequence_writable(SequenceObject *self)
{
    if (self->exports > 0) {
        PyErr_SetString(PyExc_BufferError,
                        "bouton: the sequence's values are exported (a "
                        "memoryview or NumPy array holds them): release it "
                        "before computing more");
        return 0;
    }
    return 1;
}

/* compute(n, limits) / prove(limit, limits) */
static PyObject *
sequence_run(SequenceObject *self, PyObject *args, int prove)
{
    Py_ssize_t n;
    PyObject *limits;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    if (!PyArg_ParseTuple(args, "nO", &n, &limits))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "bouton: the length must be >= 0");
        return NULL;
    }
    if (!sequence_writable(self) || limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    self->busy++;
    if (prove) {
        PyThreadState *ts = compute_begin(self->game->grp);
        st = bt_sequence_prove(self->s, (size_t)n, &lim, &d);
        compute_end(self->game->grp, ts);
    } else {
        PyThreadState *ts = compute_begin(self->game->grp);
        st = bt_sequence_compute(self->s, (size_t)n, &lim, &d);
        compute_end(self->game->grp, ts);
    }
    self->busy--;
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    Py_RETURN_NONE;
}

static PyObject *
Sequence_compute(SequenceObject *self, PyObject *args)
{
    return sequence_run(self, args, 0);
}

static PyObject *
Sequence_prove(SequenceObject *self, PyObject *args)
{
    return sequence_run(self, args, 1);
}

static PyObject *
Sequence_set_threads(SequenceObject *self, PyObject *arg)
{
    unsigned long t = PyLong_AsUnsignedLong(arg);
    if (t == (unsigned long)-1 && PyErr_Occurred())
        return NULL;
    bt_sequence_set_threads(self->s, t > 1000000 ? 1000000u : (unsigned)t);
    Py_RETURN_NONE;
}

/* value_at(n): G(n) for any n (BT_ERANGE beyond what is known). */
static PyObject *
Sequence_value_at(SequenceObject *self, PyObject *arg)
{
    bt_diag d;
    bt_status st;
    PyObject *r;
    mpz_t n, g;
    mpz_inits(n, g, NULL);
    if (mpz_from_py(n, arg) < 0) {
        mpz_clears(n, g, NULL);
        return NULL;
    }
    memset(&d, 0, sizeof d);
    if (mpz_sgn(n) < 0) {
        PyErr_SetString(PyExc_ValueError, "bouton: a heap must be >= 0");
        r = NULL;
    } else {
        group_lock(self->game->grp);
        st = bt_sequence_grundy(g, self->s, n, &d);
        group_unlock(self->game->grp);
        r = st == BT_OK ? mpz_to_py(g) : raise_status(st, &d);
    }
    mpz_clears(n, g, NULL);
    return r;
}

static Py_ssize_t
Sequence_len(SequenceObject *self)
{
    size_t n;
    group_lock(self->game->grp);
    n = bt_sequence_length(self->s);
    group_unlock(self->game->grp);
    return (Py_ssize_t)n;
}

static PyObject *
Sequence_item(SequenceObject *self, Py_ssize_t i)
{
    size_t n;
    unsigned v = 0;
    group_lock(self->game->grp);
    n = bt_sequence_length(self->s);
    if (i >= 0 && (size_t)i < n)
        v = bt_sequence_value(self->s, (size_t)i);
    group_unlock(self->game->grp);
    if (i < 0 || (size_t)i >= n) {
        PyErr_SetString(PyExc_IndexError,
                        "bouton: heap beyond the values computed");
        return NULL;
    }
    return PyLong_FromUnsignedLong(v);
}

static PySequenceMethods Sequence_as_sequence = {
    .sq_length = (lenfunc)Sequence_len,
    .sq_item = (ssizeargfunc)Sequence_item,
};

static PyObject *
Sequence_get_period(SequenceObject *self, void *c)
{
    size_t p, pre;
    int found;
    (void)c;
    group_lock(self->game->grp);
    found = bt_sequence_period(self->s, &p, &pre);
    group_unlock(self->game->grp);
    if (!found)
        Py_RETURN_NONE;
    return Py_BuildValue("(nn)", (Py_ssize_t)p, (Py_ssize_t)pre);
}

static PyObject *
Sequence_get_proved(SequenceObject *self, void *c)
{
    int proved;
    (void)c;
    group_lock(self->game->grp);
    proved = bt_sequence_is_proved(self->s);
    group_unlock(self->game->grp);
    return PyBool_FromLong(proved);
}

static PyObject *
Sequence_get_method(SequenceObject *self, void *c)
{
    PyObject *r;
    (void)c;
    group_lock(self->game->grp);
    r = PyUnicode_FromString(bt_sequence_method_name(self->s));
    group_unlock(self->game->grp);
    return r;
}

static PyObject *
Sequence_get_threads(SequenceObject *self, void *c)
{
    (void)c;
    return PyLong_FromUnsignedLong(bt_sequence_threads(self->s));
}

static PyObject *
Sequence_get_threads_used(SequenceObject *self, void *c)
{
    unsigned used;
    (void)c;
    group_lock(self->game->grp);
    used = bt_sequence_threads_used(self->s);
    group_unlock(self->game->grp);
    return PyLong_FromUnsignedLong(used);
}

static PyObject *
Sequence_get_game(SequenceObject *self, void *c)
{
    (void)c;
    return Py_NewRef(self->game);
}

static PyGetSetDef Sequence_getset[] = {
    {"_period", (getter)Sequence_get_period, NULL, NULL, NULL},
    {"proved", (getter)Sequence_get_proved, NULL,
     "True when a theorem proves the period (Guy-Smith for octal games, "
     "the max(S) window for subtraction games)",
     NULL},
    {"method", (getter)Sequence_get_method, NULL,
     "the method of the latest values: plain, rare, rare-domain, window", NULL},
    {"threads", (getter)Sequence_get_threads, NULL, "threads set", NULL},
    {"threads_used", (getter)Sequence_get_threads_used, NULL,
     "the most threads that computed values at once (the engine runs as "
     "many as pay, never more than the CPUs the process may use)",
     NULL},
    {"_game", (getter)Sequence_get_game, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef Sequence_methods[] = {
    {"_compute", (PyCFunction)Sequence_compute, METH_VARARGS, NULL},
    {"_prove", (PyCFunction)Sequence_prove, METH_VARARGS, NULL},
    {"_set_threads", (PyCFunction)Sequence_set_threads, METH_O, NULL},
    {"value_at", (PyCFunction)Sequence_value_at, METH_O,
     "value_at(n): G(n) for a heap of any size: from the values computed, "
     "or from the proved period; RangeError beyond them."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SequenceType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bouton._bouton.Sequence",
    .tp_basicsize = sizeof(SequenceObject),
    .tp_dealloc = (destructor)Sequence_dealloc,
    .tp_as_sequence = &Sequence_as_sequence,
    .tp_as_buffer = &Sequence_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The Grundy values of a heap game (bouton.GrundySequence).",
    .tp_new = Sequence_new,
    .tp_methods = Sequence_methods,
    .tp_getset = Sequence_getset,
};

/* -------------------------------------------------------------- tables */

typedef struct {
    PyObject_HEAD
    bt_table *t;
    GameObject *game;
    bt_limits lim;
    call_ctx ctx;
    PyObject *limits; /* kept: the timeout counts from the start */
    int busy;         /* a thread is in next() */
} TableObject;

static PyTypeObject TableType;

/* table(game, misere, k, min, below, limits) -> an iterator of tuples. */
static PyObject *
mod_table(PyObject *m, PyObject *args)
{
    GameObject *go;
    int misere;
    Py_ssize_t k;
    PyObject *pmin, *pbelow, *limits;
    TableObject *self;
    bt_diag d;
    bt_status st = BT_OK;
    mpz_t lo, hi;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&pnOOO", game_arg, &go, &misere, &k, &pmin,
                          &pbelow, &limits))
        return NULL;
    if (k < 0) {
        PyErr_SetString(PyExc_ValueError, "bouton.table: piles must be >= 0");
        return NULL;
    }
    self = PyObject_New(TableObject, &TableType);
    if (self == NULL)
        return NULL;
    self->t = NULL;
    self->busy = 0;
    self->game = (GameObject *)Py_NewRef(go);
    self->limits = Py_NewRef(limits);
    if (limits_from(&self->lim, &self->ctx, limits) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    self->lim.interrupt_ud = &self->ctx;
    mpz_inits(lo, hi, NULL);
    if (mpz_from_py(lo, pmin) < 0 || mpz_from_py(hi, pbelow) < 0) {
        mpz_clears(lo, hi, NULL);
        Py_DECREF(self);
        return NULL;
    }
    memset(&d, 0, sizeof d);
    {
        PyThreadState *ts = compute_begin(go->grp);
        st = bt_table_new(&self->t, go->g, misere, (size_t)k, lo, hi,
                          &self->lim, &d);
        compute_end(go->grp, ts);
    }
    mpz_clears(lo, hi, NULL);
    if (st != BT_OK || PyErr_Occurred()) {
        call_failed(st, &d, &self->ctx);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void
Table_dealloc(TableObject *self)
{
    if (self->t != NULL) {
        group_lock(self->game->grp);
        bt_table_free(self->t);
        group_unlock(self->game->grp);
    }
    Py_XDECREF(self->game);
    Py_XDECREF(self->limits);
    PyObject_Free(self);
}

static PyObject *
Table_next(TableObject *self)
{
    size_t w, i;
    mpz_t *row;
    int r;
    PyObject *out;
    if (self->t == NULL)
        return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_ValueError,
                        "bouton: the table is being read by another thread");
        return NULL;
    }
    w = bt_table_width(self->t);
    row = PyMem_Calloc(w ? w : 1, sizeof *row);
    if (row == NULL)
        return PyErr_NoMemory();
    for (i = 0; i < w; i++)
        mpz_init(row[i]);
    /* the interrupt's owner is the thread that iterates now */
    self->ctx.thread = PyThread_get_thread_ident();
    self->busy = 1;
    {
        PyThreadState *ts = compute_begin(self->game->grp);
        r = bt_table_next(self->t, row);
        compute_end(self->game->grp, ts);
    }
    self->busy = 0;
    if (r == 1 && PyErr_Occurred()) /* Ctrl-C seen by the interrupt */
        r = -BT_EINTR;
    if (r == 1)
        out = mpz_tuple((const mpz_t *)row, w);
    else if (r == 0)
        out = NULL; /* StopIteration */
    else {
        bt_diag d;
        memset(&d, 0, sizeof d);
        snprintf(d.message, sizeof d.message, "%s", bt_table_message(self->t));
        out = call_failed((bt_status)-r, &d, &self->ctx);
    }
    for (i = 0; i < w; i++)
        mpz_clear(row[i]);
    PyMem_Free(row);
    if (r != 1) {
        group_lock(self->game->grp);
        bt_table_free(self->t);
        group_unlock(self->game->grp);
        self->t = NULL;
    }
    return out;
}

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bouton._bouton.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "An iterator over the P-positions of a table, in constant memory.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Table_next,
};

/* ----------------------------------------------------------- quotients */

typedef struct {
    PyObject_HEAD
    bt_quotient *q;
    GroupObject *grp;
} QuotientObject;

static PyTypeObject QuotientType;

static PyObject *
quotient_wrap(bt_quotient *q, GroupObject *grp)
{
    QuotientObject *o = PyObject_New(QuotientObject, &QuotientType);
    if (o == NULL) {
        bt_quotient_free(q);
        return NULL;
    }
    o->q = q;
    o->grp = (GroupObject *)Py_NewRef(grp);
    return (PyObject *)o;
}

/* quotient(game, n, until_proved, limits) */
static PyObject *
mod_quotient(PyObject *m, PyObject *args)
{
    GameObject *go;
    Py_ssize_t n;
    int until;
    PyObject *limits;
    bt_quotient *q = NULL;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&npO", game_arg, &go, &n, &until, &limits))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "bouton.quotient: upto must be >= 0");
        return NULL;
    }
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    if (until) {
        PyThreadState *ts = compute_begin(go->grp);
        st = bt_quotient_new_until_proved(&q, go->g, (size_t)n, &lim, &d);
        compute_end(go->grp, ts);
    } else {
        PyThreadState *ts = compute_begin(go->grp);
        st = bt_quotient_new(&q, go->g, (size_t)n, &lim, &d);
        compute_end(go->grp, ts);
    }
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    return quotient_wrap(q, go->grp);
}

/* quotient_load(text, limits): a quotient of its own game (new group). */
static PyObject *
mod_quotient_load(PyObject *m, PyObject *args)
{
    const char *text;
    Py_ssize_t len;
    PyObject *limits, *r;
    bt_quotient *q = NULL;
    GroupObject *grp;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    (void)m;
    if (!PyArg_ParseTuple(args, "s#O", &text, &len, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    Py_BEGIN_ALLOW_THREADS
    st = bt_quotient_load(&q, text, (size_t)len, &lim, &d);
    Py_END_ALLOW_THREADS
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    grp = group_new();
    if (grp == NULL) {
        bt_quotient_free(q);
        return NULL;
    }
    r = quotient_wrap(q, grp);
    Py_DECREF(grp);
    return r;
}

static void
Quotient_dealloc(QuotientObject *self)
{
    if (self->q != NULL) {
        group_lock(self->grp);
        bt_quotient_free(self->q);
        group_unlock(self->grp);
    }
    Py_XDECREF(self->grp);
    PyObject_Free(self);
}

static PyObject *
Quotient_info(QuotientObject *self, PyObject *noargs)
{
    const bt_quotient *q = self->q;
    size_t i, n = bt_quotient_order(q), period, pre;
    PyObject *gens, *rels, *words, *pset, *r;
    (void)noargs;
    gens = PyList_New(0);
    rels = PyList_New(0);
    words = PyList_New(0);
    pset = PyList_New(0);
    if (gens == NULL || rels == NULL || words == NULL || pset == NULL)
        goto fail;
    for (i = 0; i < bt_quotient_generator_count(q); i++) {
        PyObject *t =
            Py_BuildValue("(sn)", bt_quotient_generator_name(q, i),
                          (Py_ssize_t)bt_quotient_generator_heap(q, i));
        if (t == NULL || PyList_Append(gens, t) < 0) {
            Py_XDECREF(t);
            goto fail;
        }
        Py_DECREF(t);
    }
    for (i = 0; i < bt_quotient_relation_count(q); i++) {
        PyObject *t = PyUnicode_FromString(bt_quotient_relation(q, i));
        if (t == NULL || PyList_Append(rels, t) < 0) {
            Py_XDECREF(t);
            goto fail;
        }
        Py_DECREF(t);
    }
    for (i = 0; i < n; i++) {
        PyObject *t = PyUnicode_FromString(bt_quotient_word(q, i));
        PyObject *b = PyBool_FromLong(bt_quotient_is_p(q, i));
        if (t == NULL || PyList_Append(words, t) < 0 ||
            PyList_Append(pset, b) < 0) {
            Py_XDECREF(t);
            Py_DECREF(b);
            goto fail;
        }
        Py_DECREF(t);
        Py_DECREF(b);
    }
    if (bt_quotient_period(q, &period, &pre))
        r = Py_BuildValue("{s:s,s:n,s:N,s:N,s:N,s:N,s:(nn),s:O}", "game",
                          bt_game_spec(bt_quotient_game(q)), "upto",
                          (Py_ssize_t)bt_quotient_upto(q), "generators", gens,
                          "relations", rels, "words", words, "p", pset,
                          "period", (Py_ssize_t)period, (Py_ssize_t)pre, "tame",
                          bt_quotient_is_tame(q) ? Py_True : Py_False);
    else
        r = Py_BuildValue("{s:s,s:n,s:N,s:N,s:N,s:N,s:O,s:O}", "game",
                          bt_game_spec(bt_quotient_game(q)), "upto",
                          (Py_ssize_t)bt_quotient_upto(q), "generators", gens,
                          "relations", rels, "words", words, "p", pset,
                          "period", Py_None, "tame",
                          bt_quotient_is_tame(q) ? Py_True : Py_False);
    return r;
fail:
    Py_XDECREF(gens);
    Py_XDECREF(rels);
    Py_XDECREF(words);
    Py_XDECREF(pset);
    return NULL;
}

static PyObject *
Quotient_mul(QuotientObject *self, PyObject *args)
{
    Py_ssize_t x, y;
    size_t r;
    if (!PyArg_ParseTuple(args, "nn", &x, &y))
        return NULL;
    r = (x < 0 || y < 0) ? SIZE_MAX
                         : bt_quotient_mul(self->q, (size_t)x, (size_t)y);
    if (r == SIZE_MAX) {
        PyErr_Format(PyExc_IndexError,
                     "bouton: %zd or %zd is not an element of a quotient of "
                     "order %zu",
                     x, y, bt_quotient_order(self->q));
        return NULL;
    }
    return PyLong_FromSize_t(r);
}

static PyObject *
Quotient_heap(QuotientObject *self, PyObject *arg)
{
    mpz_t h;
    size_t x;
    mpz_init(h);
    if (mpz_from_py(h, arg) < 0) {
        mpz_clear(h);
        return NULL;
    }
    x = mpz_sgn(h) < 0 ? SIZE_MAX : bt_quotient_heap_at(self->q, h);
    mpz_clear(h);
    if (x == SIZE_MAX) {
        bt_diag d;
        memset(&d, 0, sizeof d);
        snprintf(d.message, sizeof d.message,
                 "the heap is beyond %zu, the bound of this quotient, which "
                 "is not proved periodic",
                 bt_quotient_upto(self->q));
        return raise_status(BT_ERANGE, &d);
    }
    return PyLong_FromSize_t(x);
}

static PyObject *
Quotient_element(QuotientObject *self, PyObject *arg)
{
    PositionObject *po;
    size_t x;
    bt_diag d;
    bt_status st;
    if (!position_arg(arg, &po))
        return NULL;
    memset(&d, 0, sizeof d);
    {
        PyThreadState *ts = compute_begin2(self->grp, po->grp);
        st = bt_quotient_element(&x, self->q, po->p, &d);
        compute_end2(self->grp, po->grp, ts);
    }
    if (st != BT_OK)
        return raise_status(st, &d);
    return PyLong_FromSize_t(x);
}

static PyObject *
Quotient_save(QuotientObject *self, PyObject *noargs)
{
    char *s = NULL;
    bt_diag d;
    bt_status st;
    PyObject *r;
    (void)noargs;
    memset(&d, 0, sizeof d);
    st = bt_quotient_save(&s, self->q, &d);
    if (st != BT_OK)
        return raise_status(st, &d);
    r = PyUnicode_FromString(s);
    free(s);
    return r;
}

/*
 * install(limits): lends a copy of the quotient to the misère analyses of
 * this process (bt_quotient_install).  The copy is saved and loaded back,
 * so it has a game of its own, shared with no Python object: the analyses
 * of every thread may use it.  Loading checks it again (never trusted).
 */
static PyObject *
Quotient_install(QuotientObject *self, PyObject *args)
{
    PyObject *limits;
    char *text = NULL;
    bt_quotient *copy = NULL;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    if (!PyArg_ParseTuple(args, "O", &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    group_lock(self->grp);
    st = bt_quotient_save(&text, self->q, &d);
    group_unlock(self->grp);
    if (st != BT_OK)
        return raise_status(st, &d);
    Py_BEGIN_ALLOW_THREADS
    st = bt_quotient_load(&copy, text, strlen(text), &lim, &d);
    Py_END_ALLOW_THREADS
    free(text);
    if (st != BT_OK || PyErr_Occurred()) {
        bt_quotient_free(copy);
        return call_failed(st, &d, &c);
    }
    st = bt_quotient_install(copy, &d); /* takes copy, whatever it gives */
    if (st != BT_OK)
        return raise_status(st, &d);
    Py_RETURN_NONE;
}

static PyMethodDef Quotient_methods[] = {
    {"info", (PyCFunction)Quotient_info, METH_NOARGS, NULL},
    {"mul", (PyCFunction)Quotient_mul, METH_VARARGS, NULL},
    {"heap", (PyCFunction)Quotient_heap, METH_O, NULL},
    {"element", (PyCFunction)Quotient_element, METH_O, NULL},
    {"save", (PyCFunction)Quotient_save, METH_NOARGS, NULL},
    {"install", (PyCFunction)Quotient_install, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyTypeObject QuotientType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bouton._bouton.QuotientHandle",
    .tp_basicsize = sizeof(QuotientObject),
    .tp_dealloc = (destructor)Quotient_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = Quotient_methods,
};

/* ------------------------------------------------------------- records */

typedef struct {
    PyObject_HEAD
    bt_record *r;
    GroupObject *grp;
} RecordObject;

static PyTypeObject RecordType;

static PyObject *
record_wrap(bt_record *r, GroupObject *grp)
{
    RecordObject *o = PyObject_New(RecordObject, &RecordType);
    if (o == NULL) {
        bt_record_free(r);
        return NULL;
    }
    o->r = r;
    o->grp = (GroupObject *)Py_NewRef(grp);
    return (PyObject *)o;
}

static void
Record_dealloc(RecordObject *self)
{
    if (self->r != NULL) {
        group_lock(self->grp);
        bt_record_free(self->r);
        group_unlock(self->grp);
    }
    Py_XDECREF(self->grp);
    PyObject_Free(self);
}

/* record_new(start handle, misere, first) */
static PyObject *
mod_record_new(PyObject *m, PyObject *args)
{
    PositionObject *po;
    int misere;
    const char *first;
    bt_record *r = NULL;
    bt_diag d;
    bt_status st;
    (void)m;
    if (!PyArg_ParseTuple(args, "O&ps", position_arg, &po, &misere, &first))
        return NULL;
    if (strlen(first) != 1) {
        PyErr_SetString(PyExc_ValueError, "bouton: first must be 'A' or 'B'");
        return NULL;
    }
    memset(&d, 0, sizeof d);
    {
        PyThreadState *ts = compute_begin(po->grp);
        st = bt_record_new(&r, po->p, misere, first[0], &d);
        compute_end(po->grp, ts);
    }
    if (st != BT_OK)
        return raise_status(st, &d);
    return record_wrap(r, po->grp);
}

static PyObject *
mod_record_parse(PyObject *m, PyObject *args)
{
    const char *text;
    PyObject *limits, *o;
    bt_record *r = NULL;
    GroupObject *grp;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    (void)m;
    if (!PyArg_ParseTuple(args, "sO", &text, &limits))
        return NULL;
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    Py_BEGIN_ALLOW_THREADS
    st = bt_record_parse(&r, text, &lim, &d);
    Py_END_ALLOW_THREADS
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    grp = group_new();
    if (grp == NULL) {
        bt_record_free(r);
        return NULL;
    }
    o = record_wrap(r, grp);
    Py_DECREF(grp);
    return o;
}

static PyObject *
Record_length(RecordObject *self, PyObject *noargs)
{
    size_t n;
    (void)noargs;
    group_lock(self->grp);
    n = bt_record_length(self->r);
    group_unlock(self->grp);
    return PyLong_FromSize_t(n);
}

/* position(i): a copy of the position after i moves (same group). */
static PyObject *
Record_position(RecordObject *self, PyObject *arg)
{
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    bt_position *p = NULL;
    bt_status st = BT_EINVAL;
    if (i == -1 && PyErr_Occurred())
        return NULL;
    {
        PyThreadState *ts = compute_begin(self->grp);
        if (i >= 0 && (size_t)i <= bt_record_length(self->r))
            st = bt_position_copy(&p, bt_record_position(self->r, (size_t)i));
        compute_end(self->grp, ts);
    }
    if (st == BT_EINVAL) {
        PyErr_SetString(PyExc_IndexError,
                        "bouton: no such position in the record");
        return NULL;
    }
    if (st != BT_OK)
        return raise_status(st, NULL);
    return position_wrap(p, self->grp);
}

static PyObject *
Record_move(RecordObject *self, PyObject *arg)
{
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    PyObject *r = NULL;
    if (i == -1 && PyErr_Occurred())
        return NULL;
    group_lock(self->grp);
    if (i >= 0 && (size_t)i < bt_record_length(self->r))
        r = move_to_py(bt_record_move(self->r, (size_t)i));
    else
        PyErr_SetString(PyExc_IndexError, "bouton: no such move in the record");
    group_unlock(self->grp);
    return r;
}

static PyObject *
Record_player(RecordObject *self, PyObject *arg)
{
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    char p = 0;
    if (i == -1 && PyErr_Occurred())
        return NULL;
    group_lock(self->grp);
    if (i >= 0 && (size_t)i <= bt_record_length(self->r))
        p = bt_record_player(self->r, (size_t)i);
    group_unlock(self->grp);
    if (p == 0) {
        PyErr_SetString(PyExc_IndexError, "bouton: no such move in the record");
        return NULL;
    }
    return PyUnicode_FromStringAndSize(&p, 1);
}

static PyObject *
Record_winner(RecordObject *self, PyObject *noargs)
{
    char w;
    (void)noargs;
    {
        PyThreadState *ts = compute_begin(self->grp);
        w = bt_record_winner(self->r);
        compute_end(self->grp, ts);
    }
    if (w == 0)
        Py_RETURN_NONE;
    return PyUnicode_FromStringAndSize(&w, 1);
}

static PyObject *
Record_misere(RecordObject *self, PyObject *noargs)
{
    (void)noargs;
    return PyBool_FromLong(bt_record_is_misere(self->r));
}

/* play(component, to, limits): the move, checked against the rules. */
static PyObject *
Record_play(RecordObject *self, PyObject *args)
{
    Py_ssize_t comp;
    PyObject *tolist, *limits;
    bt_move mv;
    mpz_t *to;
    size_t nto;
    bt_limits lim;
    call_ctx c;
    bt_diag d;
    bt_status st;
    if (!PyArg_ParseTuple(args, "nOO", &comp, &tolist, &limits))
        return NULL;
    if (comp < 0) {
        PyErr_SetString(PyExc_IndexError, "bouton: component must be >= 0");
        return NULL;
    }
    if (limits_from(&lim, &c, limits) < 0)
        return NULL;
    if (mpz_array_from_py(&to, &nto, tolist) < 0)
        return NULL;
    mv.component = (size_t)comp;
    mv.nto = nto;
    mv.to = to;
    mv.text = NULL;
    memset(&d, 0, sizeof d);
    {
        PyThreadState *ts = compute_begin(self->grp);
        st = bt_record_play(self->r, &mv, &lim, &d);
        compute_end(self->grp, ts);
    }
    mpz_array_free(to, nto);
    if (st != BT_OK || PyErr_Occurred())
        return call_failed(st, &d, &c);
    Py_RETURN_NONE;
}

static PyObject *
Record_undo(RecordObject *self, PyObject *arg)
{
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    bt_status st;
    bt_diag d;
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "bouton: undo takes n >= 0");
        return NULL;
    }
    {
        PyThreadState *ts = compute_begin(self->grp);
        st = bt_record_undo(self->r, (size_t)n);
        compute_end(self->grp, ts);
    }
    if (st != BT_OK) {
        memset(&d, 0, sizeof d);
        snprintf(d.message, sizeof d.message,
                 "cannot take back %zd moves of a record of %zu", n,
                 bt_record_length(self->r));
        return raise_status(st, &d);
    }
    Py_RETURN_NONE;
}

static PyObject *
Record_format(RecordObject *self, PyObject *noargs)
{
    char *s;
    PyObject *r;
    (void)noargs;
    {
        PyThreadState *ts = compute_begin(self->grp);
        s = bt_record_format(self->r);
        compute_end(self->grp, ts);
    }
    if (s == NULL)
        return PyErr_NoMemory();
    r = PyUnicode_FromString(s);
    free(s);
    return r;
}

static PyObject *
Record_get(RecordObject *self, PyObject *args)
{
    const char *key, *v;
    PyObject *r;
    if (!PyArg_ParseTuple(args, "s", &key))
        return NULL;
    group_lock(self->grp);
    v = bt_record_get(self->r, key);
    r = v != NULL ? PyUnicode_FromString(v) : Py_NewRef(Py_None);
    group_unlock(self->grp);
    return r;
}

static PyObject *
Record_set(RecordObject *self, PyObject *args)
{
    const char *key, *value;
    bt_diag d;
    bt_status st;
    if (!PyArg_ParseTuple(args, "sz", &key, &value))
        return NULL;
    memset(&d, 0, sizeof d);
    group_lock(self->grp);
    st = bt_record_set(self->r, key, value, &d);
    group_unlock(self->grp);
    if (st != BT_OK)
        return raise_status(st, &d);
    Py_RETURN_NONE;
}

static PyMethodDef Record_methods[] = {
    {"length", (PyCFunction)Record_length, METH_NOARGS, NULL},
    {"position", (PyCFunction)Record_position, METH_O, NULL},
    {"move", (PyCFunction)Record_move, METH_O, NULL},
    {"player", (PyCFunction)Record_player, METH_O, NULL},
    {"winner", (PyCFunction)Record_winner, METH_NOARGS, NULL},
    {"misere", (PyCFunction)Record_misere, METH_NOARGS, NULL},
    {"play", (PyCFunction)Record_play, METH_VARARGS, NULL},
    {"undo", (PyCFunction)Record_undo, METH_O, NULL},
    {"format", (PyCFunction)Record_format, METH_NOARGS, NULL},
    {"get", (PyCFunction)Record_get, METH_VARARGS, NULL},
    {"set", (PyCFunction)Record_set, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyTypeObject RecordType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bouton._bouton.RecordHandle",
    .tp_basicsize = sizeof(RecordObject),
    .tp_dealloc = (destructor)Record_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_methods = Record_methods,
};

/* -------------------------------------------------------------- module */

static PyMethodDef module_methods[] = {
    {"families", mod_families, METH_NOARGS, NULL},
    {"parse", mod_parse, METH_VARARGS, NULL},
    {"build", mod_build, METH_VARARGS, NULL},
    {"format", mod_format, METH_VARARGS, NULL},
    {"components", mod_components, METH_VARARGS, NULL},
    {"size", mod_size, METH_VARARGS, NULL},
    {"equal", mod_equal, METH_VARARGS, NULL},
    {"moves", mod_moves, METH_VARARGS, NULL},
    {"apply", mod_apply, METH_VARARGS, NULL},
    {"find_move", mod_find_move, METH_VARARGS, NULL},
    {"is_terminal", mod_is_terminal, METH_VARARGS, NULL},
    {"analyze", mod_analyze, METH_VARARGS, NULL},
    {"remoteness", mod_remoteness, METH_VARARGS, NULL},
    {"opponent_move", mod_opponent_move, METH_VARARGS, NULL},
    {"random_position", mod_random_position, METH_VARARGS, NULL},
    {"nim_sum", mod_nim_sum, METH_VARARGS, NULL},
    {"nimber_mul", mod_nimber_mul, METH_VARARGS, NULL},
    {"nimber_pow", mod_nimber_pow, METH_VARARGS, NULL},
    {"nimber_inv", mod_nimber_inv, METH_VARARGS, NULL},
    {"nimber_sqrt", mod_nimber_sqrt, METH_VARARGS, NULL},
    {"nimber_order", mod_nimber_order, METH_O, NULL},
    {"nimber_log", mod_nimber_log, METH_VARARGS, NULL},
    {"nimber_explain", mod_nimber_explain, METH_VARARGS, NULL},
    {"count", mod_count, METH_VARARGS, NULL},
    {"wythoff_pair", mod_wythoff_pair, METH_VARARGS, NULL},
    {"wythoff_index", mod_wythoff_index, METH_VARARGS, NULL},
    {"wythoff_table", mod_wythoff_table, METH_VARARGS, NULL},
    {"table", mod_table, METH_VARARGS, NULL},
    {"quotient", mod_quotient, METH_VARARGS, NULL},
    {"quotient_load", mod_quotient_load, METH_VARARGS, NULL},
    {"record_new", mod_record_new, METH_VARARGS, NULL},
    {"record_parse", mod_record_parse, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "bouton._bouton",
    "The C extension under the package bouton (use `import bouton`).",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL};

/* The exception of each status: bouton.<name>, a subclass of Error (and
   of the matching built-in where one fits). */
static int
add_errors(PyObject *m)
{
    static const struct {
        bt_status st;
        const char *name;
        const char *doc;
    } map[] = {
        {BT_EINVAL, "bouton.ArgumentError", "EINVAL: an invalid argument"},
        {BT_EPARSE, "bouton.ParseError",
         "EPARSE: a malformed position or game"},
        {BT_ELIMIT, "bouton.LimitError", "ELIMIT: past a configured limit"},
        {BT_ENOMEM, "bouton.OutOfMemoryError", "ENOMEM: out of memory"},
        {BT_ERANGE, "bouton.RangeError",
         "ERANGE: beyond what has been computed or proved"},
        {BT_EUNDEF, "bouton.UndefinedError",
         "EUNDEF: not defined for this game or play convention"},
        {BT_EINTR, "bouton.InterruptError", "EINTR: stopped by the timeout"}};
    size_t i;
    Error = PyErr_NewExceptionWithDoc(
        "bouton.Error",
        "A failure of the library: .status is its name (\"EPARSE\"), .offset "
        "the byte of a text at fault (or None).",
        NULL, NULL);
    if (Error == NULL || PyModule_AddObjectRef(m, "Error", Error) < 0)
        return -1;
    for (i = 0; i < sizeof map / sizeof map[0]; i++) {
        PyObject *bases, *e;
        PyObject *builtin = map[i].st == BT_EINVAL || map[i].st == BT_EPARSE
                                ? PyExc_ValueError
                            : map[i].st == BT_ENOMEM ? PyExc_MemoryError
                            : map[i].st == BT_EINTR  ? PyExc_TimeoutError
                                                     : NULL;
        bases = builtin != NULL ? PyTuple_Pack(2, Error, builtin)
                                : PyTuple_Pack(1, Error);
        if (bases == NULL)
            return -1;
        e = PyErr_NewExceptionWithDoc(map[i].name, map[i].doc, bases, NULL);
        Py_DECREF(bases);
        if (e == NULL)
            return -1;
        Status_errors[map[i].st] = e;
        if (PyModule_AddObjectRef(m, strchr(map[i].name, '.') + 1, e) < 0)
            return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__bouton(void);

PyMODINIT_FUNC
PyInit__bouton(void)
{
    PyObject *m;
    PyTypeObject *types[] = {&GroupType,    &GameType,  &PositionType,
                             &SequenceType, &TableType, &QuotientType,
                             &RecordType};
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (PyType_Ready(types[i]) < 0)
            return NULL;
    m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    if (add_errors(m) < 0 ||
        PyModule_AddObjectRef(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddObjectRef(m, "Sequence", (PyObject *)&SequenceType) < 0 ||
        PyModule_AddStringConstant(m, "library_version", bt_version_string()) <
            0 ||
        PyModule_AddIntConstant(m, "SEQ_MAX_THREADS", BT_SEQ_MAX_THREADS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
