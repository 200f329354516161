/* The plain question's search in C: the same programme, the same moves in the same order, the
 * same searches as rules/rummikub/partition/search.py (first, Bounded, improve), which stay the
 * reference. Built by setup.py beside the mypyc modules and used only with them (compiled.py);
 * tests/rules/rummikub/test_compiled.py checks that both answer alike, choice for choice.
 *
 * Python hands over, once, the run states and each state's colour options (configure), then per
 * question the tiles, the weights and the optimism (solve). Everything else is mirrored here:
 *
 *   key.py        the node packed into one integer: PAIR (place 1, radix 2), GROUPED (2, 9),
 *                 JOKERS (18, 3), colour c's run state at 54 * S^(3 - c), S run states;
 *   programme.py  colour_deltas / _growing_options / _can_grow / group_deltas / groups_fit and
 *                 complete, with the options of colour_options (handed over, so in its order);
 *   search.py     _depth_first (jokers late, then not), Bounded._value / above / _way, improve.
 *
 * The GIL is held throughout, and nothing here calls back into Python during a search.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NC 4
#define NUMBERS 13
#define STEPS (NUMBERS * (NC + 1)) /* 65 steps: each number's four colours, then its groups */
#define MATURE 3
#define PAIR_PLACE 1
#define GROUPED_PLACE 2
#define JOKERS_PLACE 18
#define NUMBER_PART 54
#define MAX_STATES 64
#define IMPOSSIBLE (-1000000000LL)

/* ---- what configure() hands over: the run states and every colour's options -------------- */

typedef struct {
    int16_t state; /* the new run state (an index into the states) */
    int8_t jokers; /* jokers in runs */
    int8_t grouped; /* naturals to groups */
    int8_t in_runs; /* naturals in runs */
} Option;

static int n_states = 0;
static PyObject *state_objects = NULL; /* the tuples of key.STATES, for the choices returned */
static int8_t state_short[MAX_STATES]; /* runs open shorter than three */
static int8_t state_ones[MAX_STATES]; /* runs of one tile */
static Option *options = NULL; /* colour_options(state, available, must, jokers left), flattened */
static int32_t option_start[MAX_STATES * 27 + 1];
static int64_t colour_place[NC];

#define OPTION_SLOT(state, available, must, left) ((state) * 27 + (available) * 9 + (must) * 3 + (left))

/* ---- an open-addressing map from node to int64 (keys stored plus one: 0 is empty) --------- */

typedef struct {
    uint64_t *keys;
    int64_t *values;
    size_t mask;
    size_t size;
} Map;

static int map_init(Map *map, size_t capacity) {
    map->keys = calloc(capacity, sizeof(uint64_t));
    map->values = malloc(capacity * sizeof(int64_t));
    map->mask = capacity - 1;
    map->size = 0;
    return map->keys != NULL && map->values != NULL;
}

static void map_free(Map *map) {
    free(map->keys);
    free(map->values);
    map->keys = NULL;
    map->values = NULL;
}

static inline size_t map_hash(uint64_t key) {
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 32;
    return (size_t)key;
}

/* The slot of ``key`` (found, or the empty one where it would go). */
static inline size_t map_slot(const Map *map, uint64_t key) {
    size_t i = map_hash(key) & map->mask;
    uint64_t stored = key + 1;
    while (map->keys[i] && map->keys[i] != stored) i = (i + 1) & map->mask;
    return i;
}

static inline int map_get(const Map *map, uint64_t key, int64_t *value) {
    size_t i = map_slot(map, key);
    if (!map->keys[i]) return 0;
    *value = map->values[i];
    return 1;
}

static int map_grow(Map *map) {
    Map bigger;
    if (!map_init(&bigger, (map->mask + 1) * 2)) {
        map_free(&bigger);
        return 0;
    }
    for (size_t i = 0; i <= map->mask; i++) {
        if (map->keys[i]) {
            size_t j = map_slot(&bigger, map->keys[i] - 1);
            bigger.keys[j] = map->keys[i];
            bigger.values[j] = map->values[i];
        }
    }
    bigger.size = map->size;
    map_free(map);
    *map = bigger;
    return 1;
}

/* ``map`` emptied for about ``expected`` keys: cleared where it is that small already, else made
anew at that size (a layer's index must not cost the largest layer's size at every step). 0 when
memory ran out. */
static int map_clear(Map *map, size_t expected) {
    size_t capacity = 1024;
    while (capacity < 2 * expected) capacity *= 2;
    if (capacity < map->mask + 1) {
        map_free(map);
        return map_init(map, capacity);
    }
    memset(map->keys, 0, (map->mask + 1) * sizeof(uint64_t));
    map->size = 0;
    return 1;
}

/* 0 when memory ran out. */
static int map_put(Map *map, uint64_t key, int64_t value) {
    size_t i = map_slot(map, key);
    if (!map->keys[i]) {
        if (2 * (map->size + 1) > map->mask + 1) {
            if (!map_grow(map)) return 0;
            i = map_slot(map, key);
        }
        map->keys[i] = key + 1;
        map->size++;
    }
    map->values[i] = value;
    return 1;
}

/* ---- one question: the tiles, the gains, the moves as key differences ---------------------- */

typedef struct {
    int64_t delta;
    int64_t gain;
    int16_t state; /* a colour's new run state; at the end of a number, the jokers joining groups */
    int8_t jokers, grouped, in_runs;
} Move;

typedef struct {
    int available[NC][NUMBERS + 3];
    int must[NC][NUMBERS + 3];
    int jokers, table_jokers;
    int64_t count_weight, unit;
    int64_t values[NUMBERS + 1];
    int64_t *optimism; /* [step][jokers left], (STEPS + 1) x (jokers + 1) */
    Map lists; /* (what the step reads, step, late) -> offset << 16 | count in moves */
    Move *moves;
    size_t n_moves, moves_capacity;
    int failed; /* memory ran out */
} Problem;

static inline int64_t step_reads(int index, int64_t key) {
    int c = index % (NC + 1);
    if (c == NC) return key % NUMBER_PART;
    return key / colour_place[c] % n_states * NUMBER_PART + key % NUMBER_PART;
}

static inline int settled(int64_t key) {
    for (int c = 0; c < NC; c++)
        if (state_short[key / colour_place[c] % n_states]) return 0;
    return 1;
}

static inline int complete(const Problem *p, int64_t key) {
    return key / JOKERS_PLACE % 3 >= p->table_jokers && settled(key);
}

/* groups_fit(naturals, has_pair, jokers) is not None */
static int groups_fit(int naturals, int has_pair, int jokers) {
    int total = naturals + jokers;
    if (total == 0) return 1;
    for (int count = has_pair ? 2 : 1; count <= naturals; count++)
        if (3 * count <= total && total <= 4 * count) return 1;
    return 0;
}

/* Problem._can_grow: whether the short runs of ``state`` (colour c, after number n) can reach
 * three with the tiles at n + 1 and n + 2 and at most ``jokers`` jokers. */
static int can_grow(const Problem *p, int c, int n, int state, int jokers) {
    int shorts = state_short[state];
    if (!shorts) return 1;
    if (n == NUMBERS) return 0;
    int missing = shorts - p->available[c][n + 1];
    if (missing < 0) missing = 0;
    if (missing > jokers) return 0;
    int ones = state_ones[state];
    if (!ones) return 1;
    return n + 1 < NUMBERS && ones - p->available[c][n + 2] <= jokers - missing;
}

static Move *reserve(Problem *p, size_t more) {
    if (p->n_moves + more > p->moves_capacity) {
        size_t capacity = p->moves_capacity * 2;
        while (capacity < p->n_moves + more) capacity *= 2;
        Move *bigger = realloc(p->moves, capacity * sizeof(Move));
        if (bigger == NULL) {
            p->failed = 1;
            return NULL;
        }
        p->moves = bigger;
        p->moves_capacity = capacity;
    }
    return p->moves + p->n_moves;
}

/* Problem.colour_deltas: colour c's moves at number n from ``key`` with ``k`` tiles of which ``m``
 * must be placed, appended to the pool; most tiles first, or with ``late`` the fewest jokers
 * first (then the biggest gain), stably. */
static size_t colour_moves(Problem *p, int n, int c, int64_t key, int k, int m, int late) {
    int64_t place = colour_place[c];
    int state = (int)(key / place % n_states);
    int used = (int)(key / JOKERS_PLACE % 3);
    int pair = (int)(key % 2);
    int grouped = (int)(key / GROUPED_PLACE % 9);
    int left = p->jokers - used;
    int later = 0;
    for (int other = c + 1; other < NC; other++) later += p->available[other][n];
    int64_t worth = p->unit * p->values[n];
    int slot = OPTION_SLOT(state, k, m, left);
    int count = option_start[slot + 1] - option_start[slot];
    Move *out = reserve(p, (size_t)count);
    if (out == NULL) return 0;
    size_t made = 0;
    for (int i = option_start[slot]; i < option_start[slot + 1]; i++) {
        const Option *o = &options[i];
        if (!can_grow(p, c, n, o->state, left - o->jokers)) continue;
        int to_groups = o->grouped;
        if (grouped + to_groups &&
            grouped + to_groups + later + left - o->jokers < ((pair || to_groups == 2) ? 6 : 3))
            continue; /* too few tiles left for this number's groups */
        int laid = o->jokers + o->grouped + o->in_runs;
        Move *move = &out[made];
        move->delta = (int64_t)(o->state - state) * place + (int64_t)o->jokers * JOKERS_PLACE +
                      (int64_t)to_groups * GROUPED_PLACE + ((to_groups == 2 && !pair) ? PAIR_PLACE : 0);
        move->gain = worth * laid + p->count_weight * (laid - m);
        move->state = o->state;
        move->jokers = o->jokers;
        move->grouped = o->grouped;
        move->in_runs = o->in_runs;
        if (late) { /* insertion: stable by (jokers, -gain) */
            Move moving = *move;
            size_t j = made;
            while (j > 0 && (out[j - 1].jokers > moving.jokers ||
                             (out[j - 1].jokers == moving.jokers && out[j - 1].gain < moving.gain))) {
                out[j] = out[j - 1];
                j--;
            }
            out[j] = moving;
        }
        made++;
    }
    return made;
}

/* Problem.group_deltas: how many jokers join the groups of number n; the most first, or with
 * ``late`` the fewest. */
static size_t group_moves(Problem *p, int n, int64_t key, int late) {
    int used = (int)(key / JOKERS_PLACE % 3);
    int grouped = (int)(key / GROUPED_PLACE % 9);
    int pair = (int)(key % 2);
    int64_t reset = -(int64_t)grouped * GROUPED_PLACE - pair * PAIR_PLACE;
    int most = p->jokers - used;
    Move *out = reserve(p, (size_t)most + 1);
    if (out == NULL) return 0;
    size_t made = 0;
    for (int i = 0; i <= most; i++) {
        int jokers = late ? i : most - i;
        if (!groups_fit(grouped, pair, jokers)) continue;
        Move *move = &out[made++];
        move->delta = reset + (int64_t)jokers * JOKERS_PLACE;
        move->gain = (p->unit * p->values[n] + p->count_weight) * jokers;
        move->state = (int16_t)jokers;
        move->jokers = move->grouped = move->in_runs = 0;
    }
    return made;
}

/* Problem.deltas: the moves of step ``index`` from ``key``, computed once per what the step
 * reads. Returns the count and sets *first to their offset in p->moves (which may move when the
 * pool grows: callers index it afresh). */
static size_t step_moves(Problem *p, int index, int64_t key, int late, size_t *first) {
    uint64_t memo = ((uint64_t)step_reads(index, key) * STEPS + (uint64_t)index) * 2 + (uint64_t)late;
    int64_t found;
    if (map_get(&p->lists, memo, &found)) {
        *first = (size_t)(found >> 16);
        return (size_t)(found & 0xffff);
    }
    int n = index / (NC + 1) + 1, c = index % (NC + 1);
    size_t count = c == NC ? group_moves(p, n, key, late)
                           : colour_moves(p, n, c, key, p->available[c][n], p->must[c][n], late);
    if (p->failed) return 0;
    *first = p->n_moves;
    p->n_moves += count;
    if (!map_put(&p->lists, memo, (int64_t)*first << 16 | (int64_t)count)) p->failed = 1;
    return count;
}

/* ---- the searches ------------------------------------------------------------------------ */

typedef struct {
    Problem *p;
    int late;
    Map dead;
    int64_t choices[STEPS]; /* offsets of the moves taken, into p->moves */
} DepthFirst;

/* _depth_first's descend: the score of some completion, or IMPOSSIBLE. */
static int64_t descend(DepthFirst *search, int index, int64_t key, int64_t score) {
    Problem *p = search->p;
    if (index == STEPS) return complete(p, key) ? score : IMPOSSIBLE;
    uint64_t node = (uint64_t)key * STEPS + (uint64_t)index;
    int64_t ignored;
    if (map_get(&search->dead, node, &ignored)) return IMPOSSIBLE;
    size_t first;
    size_t count = step_moves(p, index, key, search->late, &first);
    if (p->failed) return IMPOSSIBLE;
    for (size_t i = 0; i < count; i++) {
        const Move *move = &p->moves[first + i];
        int64_t found = descend(search, index + 1, key + move->delta, score + move->gain);
        if (p->failed) return IMPOSSIBLE;
        if (found != IMPOSSIBLE) {
            search->choices[index] = (int64_t)(first + i);
            return found;
        }
    }
    if (!map_put(&search->dead, node, 0)) p->failed = 1;
    return IMPOSSIBLE;
}

typedef struct {
    Problem *p;
    Map known; /* node -> value << 1 | exact */
} Bounded;

/* Bounded._value: the best completion from ``key`` at step ``index`` if above ``need``, else an
 * upper bound not above it; remembered per node. */
static int64_t value(Bounded *search, int index, int64_t key, int64_t need) {
    Problem *p = search->p;
    if (index == STEPS) return complete(p, key) ? 0 : IMPOSSIBLE;
    uint64_t node = (uint64_t)key * STEPS + (uint64_t)index;
    int64_t packed, upper;
    if (!map_get(&search->known, node, &packed)) {
        upper = p->optimism[index * (p->jokers + 1) + p->jokers - key / JOKERS_PLACE % 3];
    } else if (packed & 1) {
        return packed >> 1;
    } else {
        upper = packed >> 1;
    }
    if (upper <= need) return upper;
    int64_t best = IMPOSSIBLE, floor = need;
    size_t first;
    size_t count = step_moves(p, index, key, 1, &first);
    if (p->failed) return IMPOSSIBLE;
    for (size_t i = 0; i < count; i++) {
        int64_t delta = p->moves[first + i].delta, gain = p->moves[first + i].gain;
        int64_t found = gain + value(search, index + 1, key + delta, floor - gain);
        if (p->failed) return IMPOSSIBLE;
        if (found > best) {
            best = found;
            if (best > floor) floor = best;
        }
    }
    int64_t stored = best > need ? best * 2 + 1 : (best > IMPOSSIBLE ? best : IMPOSSIBLE) * 2;
    if (!map_put(&search->known, node, stored)) p->failed = 1;
    return best;
}

/* Bounded._way: the moves of an arrangement scoring ``score``, read off the exact values. */
static int way(Bounded *search, int64_t score, int64_t *choices) {
    Problem *p = search->p;
    int64_t key = 0, worth = score;
    for (int index = 0; index < STEPS; index++) {
        size_t first;
        size_t count = step_moves(p, index, key, 1, &first);
        if (p->failed) return 0;
        size_t i;
        for (i = 0; i < count; i++) {
            const Move *move = &p->moves[first + i];
            int64_t child = key + move->delta, rest, packed;
            if (index + 1 == STEPS)
                rest = complete(p, child) ? 0 : IMPOSSIBLE;
            else
                rest = map_get(&search->known, (uint64_t)child * STEPS + (uint64_t)index + 1, &packed) &&
                               (packed & 1)
                           ? packed >> 1
                           : IMPOSSIBLE;
            if (move->gain + rest == worth) {
                choices[index] = (int64_t)(first + i);
                key = child;
                worth = rest;
                break;
            }
        }
        if (i == count) {
            PyErr_SetString(PyExc_AssertionError, "an exact value without a move that makes it up");
            return 0;
        }
    }
    return 1;
}

/* ---- back to Python ---------------------------------------------------------------------- */

/* A step's choice in the form rebuild() reads: a colour's (state tuple, jokers, grouped, in runs)
 * and, in the kept-meld search (``kept``), the old melds it keeps as a mask; a number's group
 * jokers (in ``state``). */
static PyObject *choice_object(int index, int state, int jokers, int grouped, int in_runs, int kept,
                               uint64_t bits) {
    if (index % (NC + 1) == NC) return PyLong_FromLong(state);
    PyObject *tuple = PyList_GET_ITEM(state_objects, state);
    if (kept) return Py_BuildValue("(OiiiK)", tuple, jokers, grouped, in_runs, (unsigned long long)bits);
    return Py_BuildValue("(Oiii)", tuple, jokers, grouped, in_runs);
}

/* (score, choices) of the plain search's moves taken. */
static PyObject *found(const Problem *p, int64_t score, const int64_t *choices) {
    PyObject *list = PyList_New(STEPS);
    if (list == NULL) return NULL;
    for (int index = 0; index < STEPS; index++) {
        const Move *move = &p->moves[choices[index]];
        PyObject *choice = choice_object(index, move->state, move->jokers, move->grouped, move->in_runs, 0, 0);
        if (choice == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, index, choice);
    }
    return Py_BuildValue("(LN)", (long long)score, list);
}

static int read_grid(PyObject *rows, int grid[NC][NUMBERS + 3], const char *what) {
    PyObject *seq = PySequence_Fast(rows, what);
    if (seq == NULL) return 0;
    if (PySequence_Fast_GET_SIZE(seq) != NC) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: one row per colour", what);
        return 0;
    }
    memset(grid, 0, sizeof(int) * NC * (NUMBERS + 3));
    for (int c = 0; c < NC; c++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, c), what);
        if (row == NULL || PySequence_Fast_GET_SIZE(row) != NUMBERS + 1) {
            Py_XDECREF(row);
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: 14 counts per colour", what);
            return 0;
        }
        for (int n = 1; n <= NUMBERS; n++) {
            long count = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, n));
            if (count == -1 && PyErr_Occurred()) {
                Py_DECREF(row);
                Py_DECREF(seq);
                return 0;
            }
            if (count < 0 || count > 2) {
                Py_DECREF(row);
                Py_DECREF(seq);
                PyErr_Format(PyExc_ValueError, "%s: a count outside 0..2", what);
                return 0;
            }
            grid[c][n] = (int)count;
        }
        Py_DECREF(row);
    }
    Py_DECREF(seq);
    return 1;
}

/* A question's tiles and gains, ``fields`` (search.native_fields: available, must, jokers,
 * table_jokers, count_weight, unit, values), and its optimism (read unless None) into ``p``, with
 * its pools; 0 on an error (set). */
static int read_problem(Problem *p, PyObject *fields, PyObject *optimism) {
    PyObject *available, *must, *values;
    int jokers, table_jokers;
    long long count_weight, unit;
    memset(p, 0, sizeof *p);
    if (!PyTuple_Check(fields) || !PyArg_ParseTuple(fields, "OOiiLLO", &available, &must, &jokers,
                                                     &table_jokers, &count_weight, &unit, &values)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "the problem's fields are a tuple");
        return 0;
    }
    if (options == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure() first");
        return 0;
    }
    if (jokers < 0 || jokers > 2 || table_jokers < 0 || table_jokers > jokers) {
        PyErr_SetString(PyExc_ValueError, "jokers or table jokers out of range");
        return 0;
    }
    if (!read_grid(available, p->available, "available") || !read_grid(must, p->must, "must")) return 0;
    for (int c = 0; c < NC; c++)
        for (int n = 1; n <= NUMBERS; n++)
            if (p->must[c][n] > p->available[c][n]) {
                PyErr_SetString(PyExc_ValueError, "more table tiles than tiles");
                return 0;
            }
    p->jokers = jokers;
    p->table_jokers = table_jokers;
    p->count_weight = count_weight;
    p->unit = unit;
    PyObject *seq = PySequence_Fast(values, "values");
    if (seq == NULL) return 0;
    if (PySequence_Fast_GET_SIZE(seq) != NUMBERS + 1) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "values: 14 of them");
        return 0;
    }
    for (int n = 0; n <= NUMBERS; n++) p->values[n] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, n));
    Py_DECREF(seq);
    if (PyErr_Occurred()) return 0;
    size_t width = (size_t)jokers + 1;
    p->optimism = calloc((STEPS + 1) * width, sizeof(int64_t));
    if (p->optimism == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    if (optimism != Py_None) {
        PyObject *rows = PySequence_Fast(optimism, "optimism");
        if (rows == NULL || PySequence_Fast_GET_SIZE(rows) != STEPS + 1) {
            Py_XDECREF(rows);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "optimism: one row per step and one");
            return 0;
        }
        for (int i = 0; i <= STEPS && !PyErr_Occurred(); i++) {
            PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, i), "optimism");
            if (row == NULL) break;
            if ((size_t)PySequence_Fast_GET_SIZE(row) != width) {
                PyErr_SetString(PyExc_ValueError, "optimism: one bound per number of jokers left");
            } else {
                for (size_t j = 0; j < width; j++)
                    p->optimism[i * width + j] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(row, j));
            }
            Py_DECREF(row);
        }
        Py_DECREF(rows);
        if (PyErr_Occurred()) return 0;
    }
    p->moves_capacity = 4096;
    p->moves = malloc(p->moves_capacity * sizeof(Move));
    if (p->moves == NULL || !map_init(&p->lists, 4096)) {
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

static void free_problem(Problem *p) {
    map_free(&p->lists);
    free(p->moves);
    free(p->optimism);
    p->moves = NULL;
    p->optimism = NULL;
}

/* solve(fields, optimism, mode, bound): ``fields`` as read_problem reads them
 *
 * mode 0: Bounded(problem).above(bound)          -> (score, choices) or None
 * mode 1: first(problem)                         -> (score, choices) or None
 * mode 2: first(problem), then improve(problem)  -> (score, choices) or None
 * ``optimism`` (Problem.optimism(), or None in mode 1) bounds the searches of modes 0 and 2. */
static PyObject *solve(PyObject *self, PyObject *args) {
    PyObject *fields, *optimism;
    int mode;
    long long bound;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiL", &fields, &optimism, &mode, &bound)) return NULL;
    if (mode < 0 || mode > 2 || (mode != 1 && optimism == Py_None)) {
        PyErr_SetString(PyExc_ValueError, "mode out of range, or no optimism to bound its search");
        return NULL;
    }
    Problem p;
    if (!read_problem(&p, fields, optimism)) {
        free_problem(&p);
        return NULL;
    }

    PyObject *result = NULL;
    int64_t choices[STEPS];
    int64_t score = IMPOSSIBLE;
    int best = -1;
    DepthFirst depth[2];
    Bounded bounded;
    memset(depth, 0, sizeof depth);
    memset(&bounded, 0, sizeof bounded);
    if (!map_init(&bounded.known, 1 << 12)) {
        p.failed = 1;
        goto done;
    }
    if (mode == 0) {
        bounded.p = &p;
        score = value(&bounded, 0, 0, bound);
        if (p.failed || PyErr_Occurred()) goto done;
        if (score <= bound) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        if (!way(&bounded, score, choices)) goto done;
        result = found(&p, score, choices);
        goto done;
    }
    /* first(): jokers late, then the biggest gain first; the better (the first of equals) */
    for (int late = 1; late >= 0; late--) {
        DepthFirst *search = &depth[late];
        search->p = &p;
        search->late = late;
        if (!map_init(&search->dead, 1 << 10)) {
            p.failed = 1;
            goto done;
        }
        int64_t got = descend(search, 0, 0, 0);
        if (p.failed) goto done;
        if (got != IMPOSSIBLE && (best < 0 || got > score)) {
            score = got;
            best = late;
        }
    }
    if (best < 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    memcpy(choices, depth[best].choices, sizeof choices);
    if (mode == 2) { /* improve(): one question for anything better */
        bounded.p = &p;
        int64_t better = value(&bounded, 0, 0, score);
        if (p.failed || PyErr_Occurred()) goto done;
        if (better > score) {
            if (!way(&bounded, better, choices)) goto done;
            score = better;
        }
    }
    result = found(&p, score, choices);

done:
    if (p.failed && result == NULL && !PyErr_Occurred()) PyErr_NoMemory();
    map_free(&depth[0].dead);
    map_free(&depth[1].dead);
    map_free(&bounded.known);
    free_problem(&p);
    return result;
}

/* ---- the kept-meld search: keeping.py's KeepingProblem moves and Keeping.layers ----------- */

#define MAX_OLDS 36 /* a node's kept-meld mask sits above KEPT_PLACE (< 2^27) in a 64-bit key */

typedef struct {
    int64_t delta, gain, hope;
    uint64_t bits; /* the old melds kept from this step on */
    int16_t state;
    int8_t jokers, grouped, in_runs;
} KeepMove;

typedef struct {
    uint64_t mask;
    int jokers;
    int64_t gain;
} KeepChoice;

typedef struct {
    int64_t *keys, *scores, *came;
    size_t size, capacity;
} Layer;

typedef struct {
    Problem p;
    int64_t kept_place;
    KeepChoice *choices; /* _Olds.choices, step by step */
    int32_t choice_start[STEPS + 1];
    int8_t *here_old, *here_count; /* _Olds.here */
    int32_t here_start[STEPS + 1];
    uint64_t releasing[STEPS], touching[STEPS];
    int64_t ahead[STEPS + 1], early[NUMBERS + 2], suffix[NUMBERS + 2];
    int has_suffix;
    int64_t best; /* the most points any arrangement scores */
    KeepMove *moves;
    size_t n_moves, moves_capacity;
    Map lists; /* (kept melds the step reads, what else it reads, step) -> offset << 16 | count */
    Layer layers[STEPS + 1];
} Keep;

static int layer_push(Layer *layer, int64_t key, int64_t score, int64_t came) {
    if (layer->size == layer->capacity) {
        size_t capacity = layer->capacity ? layer->capacity * 2 : 64;
        int64_t *keys = realloc(layer->keys, capacity * sizeof(int64_t));
        if (keys == NULL) return 0;
        layer->keys = keys;
        int64_t *scores = realloc(layer->scores, capacity * sizeof(int64_t));
        if (scores == NULL) return 0;
        layer->scores = scores;
        int64_t *from = realloc(layer->came, capacity * sizeof(int64_t));
        if (from == NULL) return 0;
        layer->came = from;
        layer->capacity = capacity;
    }
    layer->keys[layer->size] = key;
    layer->scores[layer->size] = score;
    layer->came[layer->size] = came;
    layer->size++;
    return 1;
}

static void free_keep(Keep *k) {
    free_problem(&k->p);
    free(k->choices);
    free(k->here_old);
    free(k->here_count);
    free(k->moves);
    map_free(&k->lists);
    for (int i = 0; i <= STEPS; i++) {
        free(k->layers[i].keys);
        free(k->layers[i].scores);
        free(k->layers[i].came);
    }
}

/* Python's stable sorts, as the comparisons of a merge sort on indices. */
static const int64_t *sort_by; /* descending by this, ties in their order */

static void merge_sort(size_t *items, size_t *scratch, size_t count) {
    if (count < 2) return;
    size_t half = count / 2;
    merge_sort(items, scratch, half);
    merge_sort(items + half, scratch, count - half);
    size_t i = 0, j = half, out = 0;
    while (i < half && j < count) scratch[out++] = sort_by[items[j]] > sort_by[items[i]] ? items[j++] : items[i++];
    while (i < half) scratch[out++] = items[i++];
    while (j < count) scratch[out++] = items[j++];
    memcpy(items, scratch, count * sizeof(size_t));
}

static KeepMove *keep_reserve(Keep *k, size_t more) {
    if (k->n_moves + more > k->moves_capacity) {
        size_t capacity = k->moves_capacity * 2;
        while (capacity < k->n_moves + more) capacity *= 2;
        KeepMove *bigger = realloc(k->moves, capacity * sizeof(KeepMove));
        if (bigger == NULL) {
            k->p.failed = 1;
            return NULL;
        }
        k->moves = bigger;
        k->moves_capacity = capacity;
    }
    return k->moves + k->n_moves;
}

/* KeepingProblem.step_deltas with Keeping.layers' hope (the gain and the optimism after it),
 * sorted by hope, stably: computed once per what the step reads. Returns the count and sets
 * *first to their offset in k->moves. */
static size_t keep_moves(Keep *k, int index, int64_t key, size_t *first) {
    Problem *p = &k->p;
    int n = index / (NC + 1) + 1, c = index % (NC + 1);
    uint64_t masked = c < NC ? ((uint64_t)(key / k->kept_place) & k->touching[index]) : 0;
    int64_t plain = key % k->kept_place;
    uint64_t memo = masked << 17 | (uint64_t)(step_reads(index, plain) * STEPS + index);
    int64_t found;
    if (map_get(&k->lists, memo, &found)) {
        *first = (size_t)(found >> 16);
        return (size_t)(found & 0xffff);
    }
    size_t start = k->n_moves, made = 0;
    if (c == NC) {
        size_t count = group_moves(p, n, key, 0);
        if (p->failed) return 0;
        KeepMove *out = keep_reserve(k, count);
        if (out == NULL) return 0;
        for (size_t i = 0; i < count; i++) {
            const Move *move = &p->moves[p->n_moves + i];
            out[i] = (KeepMove){move->delta, move->gain, 0, 0, move->state, 0, 0, 0};
        }
        made = count;
    } else {
        int used = (int)(key / JOKERS_PLACE % 3);
        for (int32_t i = k->choice_start[index]; i < k->choice_start[index + 1]; i++) {
            const KeepChoice *choice = &k->choices[i];
            if (used + choice->jokers > p->jokers) continue;
            uint64_t both = masked | choice->mask;
            int removed = 0;
            for (int32_t h = k->here_start[index]; h < k->here_start[index + 1]; h++)
                if (both >> k->here_old[h] & 1) removed += k->here_count[h];
            int64_t shift = (int64_t)choice->jokers * JOKERS_PLACE +
                            ((int64_t)(both & ~k->releasing[index]) - (int64_t)masked) * k->kept_place;
            int64_t gain = choice->gain + p->unit * p->values[n] * removed;
            int tiles = p->available[c][n] - removed, must = p->must[c][n] - removed;
            if (tiles < 0 || must < 0) continue;
            size_t count = colour_moves(p, n, c, plain + (int64_t)choice->jokers * JOKERS_PLACE, tiles, must, 0);
            if (p->failed) return 0;
            KeepMove *out = keep_reserve(k, count);
            if (out == NULL) return 0;
            for (size_t j = 0; j < count; j++) {
                const Move *move = &p->moves[p->n_moves + j];
                out[j] = (KeepMove){move->delta + shift, move->gain + gain, 0, choice->mask, move->state,
                                    move->jokers, move->grouped, move->in_runs};
            }
            k->n_moves += count; /* (kept while the next choice's moves are made) */
            made += count;
        }
        k->n_moves = start;
    }
    KeepMove *list = k->moves + start;
    const int64_t *bound = &p->optimism[(size_t)(index + 1) * (size_t)(p->jokers + 1)];
    for (size_t i = 0; i < made; i++)
        list[i].hope = list[i].gain + bound[p->jokers - (key + list[i].delta) / JOKERS_PLACE % 3];
    if (made > 1) { /* stably by hope, the highest first */
        size_t *order = malloc(2 * made * sizeof(size_t));
        int64_t *hopes = malloc(made * sizeof(int64_t));
        KeepMove *copy = malloc(made * sizeof(KeepMove));
        if (order == NULL || hopes == NULL || copy == NULL) {
            free(order);
            free(hopes);
            free(copy);
            p->failed = 1;
            return 0;
        }
        for (size_t i = 0; i < made; i++) {
            order[i] = i;
            hopes[i] = list[i].hope;
        }
        sort_by = hopes;
        merge_sort(order, order + made, made);
        memcpy(copy, list, made * sizeof(KeepMove));
        for (size_t i = 0; i < made; i++) list[i] = copy[order[i]];
        free(order);
        free(hopes);
        free(copy);
    }
    *first = start;
    k->n_moves = start + made;
    if (!map_put(&k->lists, memo, (int64_t)start << 16 | (int64_t)made)) p->failed = 1;
    return made;
}

/* _narrowed: the ``beam`` best-scoring nodes, shared equally by the numbers of jokers used (in
 * the order those first appear), each share the best first, ties in their order. */
static int narrow(Layer *layer, size_t beam) {
    size_t size = layer->size;
    int order_of[3] = {-1, -1, -1}, classes = 0;
    int jokers_of_class[3];
    for (size_t i = 0; i < size; i++) {
        int jokers = (int)(layer->keys[i] / JOKERS_PLACE % 3);
        if (order_of[jokers] < 0) {
            order_of[jokers] = classes;
            jokers_of_class[classes++] = jokers;
        }
    }
    size_t share = beam / (size_t)classes;
    size_t *items = malloc(2 * size * sizeof(size_t));
    Layer kept = {0};
    if (items == NULL) return 0;
    for (int class = 0; class < classes; class++) {
        size_t count = 0;
        for (size_t i = 0; i < size; i++)
            if (layer->keys[i] / JOKERS_PLACE % 3 == jokers_of_class[class]) items[count++] = i;
        sort_by = layer->scores;
        merge_sort(items, items + size, count);
        for (size_t i = 0; i < count && i < share; i++)
            if (!layer_push(&kept, layer->keys[items[i]], layer->scores[items[i]], layer->came[items[i]])) {
                free(items);
                free(kept.keys);
                free(kept.scores);
                free(kept.came);
                return 0;
            }
    }
    free(items);
    free(layer->keys);
    free(layer->scores);
    free(layer->came);
    *layer = kept;
    return 1;
}

static int find(const Layer *layer, int64_t key, size_t *at) {
    for (size_t i = 0; i < layer->size; i++)
        if (layer->keys[i] == key) {
            *at = i;
            return 1;
        }
    return 0;
}

/* Keeping.layers(target, beam): the best arrangement scoring at least ``target`` (a 0 beam: no
 * beam, exact), as (score, choices) or None; 0 on an error (set). */
static PyObject *keep_layers(Keep *k, int64_t target, size_t beam) {
    Problem *p = &k->p;
    int64_t unit = p->unit;
    int64_t kept = target - unit * k->best;
    Map index_of;
    if (!map_init(&index_of, 1 << 10)) return PyErr_NoMemory();
    if (!layer_push(&k->layers[0], 0, 0, -1)) {
        map_free(&index_of);
        return PyErr_NoMemory();
    }
    for (int index = 0; index < STEPS; index++) {
        int n = index / (NC + 1) + 1, c = index % (NC + 1);
        int64_t short_ = kept - k->ahead[index + 1];
        int behind_set = k->has_suffix && c == NC;
        int64_t behind = behind_set ? k->best - k->suffix[n + 1] - k->early[n] : 0;
        int checked = short_ > 0 || behind_set;
        Layer *layer = &k->layers[index], *next = &k->layers[index + 1];
        if (!map_clear(&index_of, layer->size)) goto failed;
        for (size_t at = 0; at < layer->size; at++) {
            int64_t key = layer->keys[at], score = layer->scores[at];
            size_t first;
            size_t count = keep_moves(k, index, key, &first);
            if (p->failed) goto failed;
            int64_t floor = target - score;
            for (size_t i = 0; i < count; i++) {
                const KeepMove *move = &k->moves[first + i];
                if (move->hope < floor) break; /* and so do the moves after it */
                int64_t value = score + move->gain;
                if (checked && (value % unit < short_ || (behind_set && value / unit < behind))) continue;
                int64_t new = key + move->delta;
                size_t slot = map_slot(&index_of, (uint64_t)new);
                if (index_of.keys[slot]) {
                    size_t where = (size_t)index_of.values[slot];
                    if (next->scores[where] < value) {
                        next->scores[where] = value;
                        next->came[where] = key;
                    }
                } else {
                    if (!map_put(&index_of, (uint64_t)new, (int64_t)next->size) ||
                        !layer_push(next, new, value, key))
                        goto failed;
                }
            }
        }
        if (beam && next->size > beam && !narrow(next, beam)) goto failed;
    }
    map_free(&index_of);
    {
        const Layer *last = &k->layers[STEPS];
        int have = 0;
        int64_t score = 0, key = 0;
        for (size_t i = 0; i < last->size; i++) {
            if (!complete(p, last->keys[i])) continue;
            if (!have || last->scores[i] > score || (last->scores[i] == score && last->keys[i] > key)) {
                have = 1;
                score = last->scores[i];
                key = last->keys[i];
            }
        }
        if (!have || score < target) Py_RETURN_NONE;
        PyObject *list = PyList_New(STEPS);
        if (list == NULL) return NULL;
        int64_t total = score;
        for (int index = STEPS - 1; index >= 0; index--) {
            size_t at, from;
            if (!find(&k->layers[index + 1], key, &at) ||
                !find(&k->layers[index], k->layers[index + 1].came[at], &from)) {
                Py_DECREF(list);
                PyErr_SetString(PyExc_AssertionError, "a node without the node it came from");
                return NULL;
            }
            int64_t previous = k->layers[index].keys[from];
            int64_t gained = score - k->layers[index].scores[from];
            size_t first;
            size_t count = keep_moves(k, index, previous, &first);
            const KeepMove *move = NULL;
            for (size_t i = 0; i < count && !p->failed; i++)
                if (k->moves[first + i].delta == key - previous && k->moves[first + i].gain == gained) {
                    move = &k->moves[first + i];
                    break;
                }
            if (move == NULL) {
                Py_DECREF(list);
                if (p->failed) return PyErr_NoMemory();
                PyErr_SetString(PyExc_AssertionError, "no move that makes up a node's score");
                return NULL;
            }
            PyObject *choice =
                choice_object(index, move->state, move->jokers, move->grouped, move->in_runs, 1, move->bits);
            if (choice == NULL) {
                Py_DECREF(list);
                return NULL;
            }
            PyList_SET_ITEM(list, index, choice);
            key = previous;
            score = k->layers[index].scores[from];
        }
        return Py_BuildValue("(LN)", (long long)total, list);
    }
failed:
    map_free(&index_of);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

/* Reads a list of per-step lists of int tuples into a flat array (``width`` ints each). */
static int read_steps(PyObject *steps, int width, int64_t **values, int32_t *start, const char *what) {
    PyObject *seq = PySequence_Fast(steps, what);
    if (seq == NULL) return 0;
    if (PySequence_Fast_GET_SIZE(seq) != STEPS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: one list per step", what);
        return 0;
    }
    Py_ssize_t total = 0;
    for (int i = 0; i < STEPS; i++) {
        Py_ssize_t size = PyObject_Length(PySequence_Fast_GET_ITEM(seq, i));
        if (size < 0) {
            Py_DECREF(seq);
            return 0;
        }
        total += size;
    }
    *values = malloc((size_t)(total ? total : 1) * (size_t)width * sizeof(int64_t));
    if (*values == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return 0;
    }
    int32_t at = 0;
    for (int i = 0; i < STEPS; i++) {
        start[i] = at;
        PyObject *items = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), what);
        if (items == NULL) break;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(items) && !PyErr_Occurred(); j++) {
            PyObject *item = PySequence_Fast(PySequence_Fast_GET_ITEM(items, j), what);
            if (item == NULL) break;
            if (PySequence_Fast_GET_SIZE(item) != width) {
                PyErr_Format(PyExc_ValueError, "%s: %d numbers each", what, width);
            } else {
                for (int w = 0; w < width; w++)
                    (*values)[(size_t)at * (size_t)width + (size_t)w] =
                        (int64_t)PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(item, w));
                at++;
            }
            Py_DECREF(item);
        }
        Py_DECREF(items);
        if (PyErr_Occurred()) break;
    }
    start[STEPS] = at;
    Py_DECREF(seq);
    return !PyErr_Occurred();
}

static int read_ints(PyObject *list, int64_t *out, Py_ssize_t count, const char *what) {
    PyObject *seq = PySequence_Fast(list, what);
    if (seq == NULL) return 0;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: %zd numbers", what, count);
        return 0;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        out[i] = (int64_t)PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    return !PyErr_Occurred();
}

/* keep(fields, optimism, choices, here, releasing, touching, ahead, early, best, suffix, target,
 *      beam): ``fields`` as read_problem reads them
 *
 * Keeping(problem, best, suffix).layers(target, beam or None) for a KeepingProblem of at most 36
 * old melds: its fields and those of its _Olds as keeping.py has them (``suffix`` may be None, a
 * 0 ``beam`` is none). -> (score, choices) or None. */
static PyObject *keep(PyObject *self, PyObject *args) {
    PyObject *fields, *optimism, *choices, *here, *releasing, *touching, *ahead, *early, *suffix;
    long long best, target, beam;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOLOLL", &fields, &optimism, &choices, &here, &releasing, &touching,
                          &ahead, &early, &best, &suffix, &target, &beam))
        return NULL;
    if (beam < 0 || optimism == Py_None) {
        PyErr_SetString(PyExc_ValueError, "a beam of 0 or more, and an optimism");
        return NULL;
    }
    Keep *k = calloc(1, sizeof(Keep));
    if (k == NULL) return PyErr_NoMemory();
    PyObject *result = NULL;
    int64_t *flat = NULL;
    int64_t unit;
    if (!read_problem(&k->p, fields, optimism)) goto done;
    unit = k->p.unit;
    if (unit < 1 || unit - 1 > MAX_OLDS) {
        PyErr_SetString(PyExc_ValueError, "1..37 as the unit (old melds + 1)");
        goto done;
    }
    k->kept_place = NUMBER_PART;
    for (int c = 0; c < NC; c++) k->kept_place *= n_states;
    if (!read_steps(choices, 3, &flat, k->choice_start, "choices")) goto done;
    k->choices = malloc((size_t)(k->choice_start[STEPS] ? k->choice_start[STEPS] : 1) * sizeof(KeepChoice));
    if (k->choices == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int32_t i = 0; i < k->choice_start[STEPS]; i++)
        k->choices[i] = (KeepChoice){(uint64_t)flat[3 * i], (int)flat[3 * i + 1], flat[3 * i + 2]};
    free(flat);
    flat = NULL;
    if (!read_steps(here, 2, &flat, k->here_start, "here")) goto done;
    int32_t heres = k->here_start[STEPS];
    k->here_old = malloc((size_t)(heres ? heres : 1));
    k->here_count = malloc((size_t)(heres ? heres : 1));
    if (k->here_old == NULL || k->here_count == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int32_t i = 0; i < heres; i++) {
        if (flat[2 * i] < 0 || flat[2 * i] >= unit - 1 || flat[2 * i + 1] < 0 || flat[2 * i + 1] > 2) {
            PyErr_SetString(PyExc_ValueError, "here: an old meld or a count out of range");
            goto done;
        }
        k->here_old[i] = (int8_t)flat[2 * i];
        k->here_count[i] = (int8_t)flat[2 * i + 1];
    }
    int64_t masks[STEPS];
    if (!read_ints(releasing, masks, STEPS, "releasing")) goto done;
    for (int i = 0; i < STEPS; i++) k->releasing[i] = (uint64_t)masks[i];
    if (!read_ints(touching, masks, STEPS, "touching")) goto done;
    for (int i = 0; i < STEPS; i++) k->touching[i] = (uint64_t)masks[i];
    if (!read_ints(ahead, k->ahead, STEPS + 1, "ahead") || !read_ints(early, k->early, NUMBERS + 2, "early"))
        goto done;
    k->has_suffix = suffix != Py_None;
    if (k->has_suffix && !read_ints(suffix, k->suffix, NUMBERS + 2, "suffix")) goto done;
    k->best = best;
    k->moves_capacity = 1024;
    k->moves = malloc(k->moves_capacity * sizeof(KeepMove));
    if (k->moves == NULL || !map_init(&k->lists, 1024)) {
        PyErr_NoMemory();
        goto done;
    }
    result = keep_layers(k, target, (size_t)beam);
done:
    free(flat);
    free_keep(k);
    free(k);
    return result;
}

/* ---- suffix_bounds: the programme from the other end, breadth-first -------------------------- */

/* suffix(fields, optimism, best): ``fields`` as read_problem reads them;
 * search.suffix_bounds for the mirrored problem given (numbers 13..1 as 1..13, each tile keeping
 * its value, its optimism): after each number the most points of a node still able to reach
 * ``best`` -> the list of 15 bounds, by the unmirrored number. A node's best score does not depend
 * on the order in which it is reached, so neither do the bounds. */
static PyObject *suffix(PyObject *self, PyObject *args) {
    PyObject *fields, *optimism;
    long long best;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOL", &fields, &optimism, &best)) return NULL;
    if (optimism == Py_None) {
        PyErr_SetString(PyExc_ValueError, "no optimism to bound the search");
        return NULL;
    }
    Problem p;
    if (!read_problem(&p, fields, optimism)) {
        free_problem(&p);
        return NULL;
    }
    int64_t bounds[NUMBERS + 2] = {0};
    Layer layers[2] = {{0}, {0}};
    Map index_of;
    PyObject *result = NULL;
    if (!map_init(&index_of, 1 << 10) || !layer_push(&layers[0], 0, 0, 0)) goto done;
    for (int index = 0; index < STEPS; index++) {
        Layer *layer = &layers[index % 2], *next = &layers[(index + 1) % 2];
        const int64_t *bound = &p.optimism[(size_t)(index + 1) * (size_t)(p.jokers + 1)];
        next->size = 0;
        if (!map_clear(&index_of, layer->size)) {
            p.failed = 1;
            goto done;
        }
        for (size_t at = 0; at < layer->size; at++) {
            int64_t key = layer->keys[at], score = layer->scores[at];
            size_t first;
            size_t count = step_moves(&p, index, key, 0, &first);
            if (p.failed) goto done;
            int64_t floor = best - score;
            for (size_t i = 0; i < count; i++) {
                const Move *move = &p.moves[first + i];
                int64_t new = key + move->delta;
                if (move->gain + bound[p.jokers - new / JOKERS_PLACE % 3] < floor) continue;
                int64_t value = score + move->gain;
                size_t slot = map_slot(&index_of, (uint64_t)new);
                if (index_of.keys[slot]) {
                    size_t where = (size_t)index_of.values[slot];
                    if (next->scores[where] < value) next->scores[where] = value;
                } else if (!map_put(&index_of, (uint64_t)new, (int64_t)next->size) ||
                           !layer_push(next, new, value, 0)) {
                    p.failed = 1;
                    goto done;
                }
            }
        }
        if (index % (NC + 1) == NC) {
            int64_t most = 0;
            for (size_t i = 0; i < next->size; i++)
                if (i == 0 || next->scores[i] > most) most = next->scores[i];
            bounds[NUMBERS + 1 - (index / (NC + 1) + 1)] = most;
        }
    }
    result = PyList_New(NUMBERS + 2);
    for (int n = 0; result != NULL && n < NUMBERS + 2; n++) {
        PyObject *number = PyLong_FromLongLong(bounds[n]);
        if (number == NULL) Py_CLEAR(result);
        else PyList_SET_ITEM(result, n, number);
    }
done:
    if (result == NULL && !PyErr_Occurred()) PyErr_NoMemory();
    map_free(&index_of);
    for (int i = 0; i < 2; i++) {
        free(layers[i].keys);
        free(layers[i].scores);
        free(layers[i].came);
    }
    free_problem(&p);
    return result;
}

/* configure(states, options): key.STATES (run states as sorted tuples of lengths 1..3) and, for
 * each state, tiles available (0..2), table tiles among them (0..2) and jokers left (0..2), the
 * options of programme.colour_options in their order, flattened in that order (27 per state). */
static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *states, *all_options;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &states, &PyList_Type, &all_options)) return NULL;
    Py_ssize_t count = PyList_GET_SIZE(states);
    if (count < 1 || count > MAX_STATES || PyList_GET_SIZE(all_options) != count * 27) {
        PyErr_SetString(PyExc_ValueError, "states: 1..64 of them, and 27 option lists each");
        return NULL;
    }
    int8_t shorts[MAX_STATES], ones[MAX_STATES];
    for (Py_ssize_t s = 0; s < count; s++) {
        PyObject *state = PyList_GET_ITEM(states, s);
        if (!PyTuple_Check(state)) {
            PyErr_SetString(PyExc_TypeError, "a run state is a tuple");
            return NULL;
        }
        shorts[s] = ones[s] = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(state); i++) {
            long length = PyLong_AsLong(PyTuple_GET_ITEM(state, i));
            if (length < 1 || length > MATURE) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a run length outside 1..3");
                return NULL;
            }
            shorts[s] += length < MATURE;
            ones[s] += length == 1;
        }
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < count * 27; i++) {
        PyObject *list = PyList_GET_ITEM(all_options, i);
        if (!PyList_Check(list)) {
            PyErr_SetString(PyExc_TypeError, "each slot's options are a list");
            return NULL;
        }
        total += PyList_GET_SIZE(list);
    }
    Option *made = malloc((size_t)(total ? total : 1) * sizeof(Option));
    if (made == NULL) return PyErr_NoMemory();
    int32_t starts[MAX_STATES * 27 + 1];
    int32_t at = 0;
    for (Py_ssize_t i = 0; i < count * 27; i++) {
        PyObject *list = PyList_GET_ITEM(all_options, i);
        starts[i] = at;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(list); j++) {
            int state, jokers, grouped, in_runs;
            if (!PyArg_ParseTuple(PyList_GET_ITEM(list, j), "iiii", &state, &jokers, &grouped, &in_runs)) {
                free(made);
                return NULL;
            }
            if (state < 0 || state >= count || jokers < 0 || jokers > 2 || grouped < 0 || grouped > 2 ||
                in_runs < 0 || in_runs > 2) {
                free(made);
                PyErr_SetString(PyExc_ValueError, "an option out of range");
                return NULL;
            }
            made[at].state = (int16_t)state;
            made[at].jokers = (int8_t)jokers;
            made[at].grouped = (int8_t)grouped;
            made[at].in_runs = (int8_t)in_runs;
            at++;
        }
    }
    starts[count * 27] = at;
    free(options);
    options = made;
    memcpy(option_start, starts, sizeof(int32_t) * (size_t)(count * 27 + 1));
    memcpy(state_short, shorts, sizeof shorts);
    memcpy(state_ones, ones, sizeof ones);
    n_states = (int)count;
    for (int c = 0; c < NC; c++) {
        int64_t place = NUMBER_PART;
        for (int above = c + 1; above < NC; above++) place *= count;
        colour_place[c] = place;
    }
    Py_XSETREF(state_objects, Py_NewRef(states));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "The run states and their colour options (once)."},
    {"solve", solve, METH_VARARGS, "One question to the plain programme (see core.c)."},
    {"keep", keep, METH_VARARGS, "The kept-meld search, Keeping.layers (see core.c)."},
    {"suffix", suffix, METH_VARARGS, "search.suffix_bounds of a mirrored problem (see core.c)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The plain Rummikub search in C (see core.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
