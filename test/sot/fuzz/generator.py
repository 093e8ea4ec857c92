"""Random Python functions for the translator's differential fuzzer (test_sot_fuzz.py).

`generate(seed)` returns the source text of a small module defining helper functions and a
function `f(x, y, n, r, flag, lst, d)`, mixing int/float/bool arithmetic, tuples, lists and
dicts, Python and tensor control flow (if on tensor.sum() > c, loops over range), calls of the
helpers, closures (reading and writing their cells), list and dict mutation of the arguments,
and the odd graph break (print, .item()). The fuzzer executes the text with Python's own exec
in the test only; Skiff's translator sees only the resulting functions.

Programs are built to run without errors in eager Python (divisions are by |v| + 1, indexes
are taken modulo lengths, pops are guarded), so any difference between translated and eager
results, types, printed output or argument mutation is a translator bug.
"""
import random

# Tensors all have shape [2, 3] (or broadcast with it); these keep them that way.
_TENSOR_UNARY = [
    '{a} * 2', '{a} - 1.5', '-{a}', 'paddle.exp({a} * 0.1)', 'paddle.tanh({a})', 'paddle.nn.functional.relu({a})',
    '{a}.abs()', '{a} / ({a}.abs() + 1.0)', '{a}.reshape([3, 2]).reshape([2, 3])', '{a}.T.T',
    '{a}.sum(axis=1, keepdim=True) + {a}', '{a} - {a}.mean()', '{a}[0] + {a}', '{a}[:, 1:2] * {a}',
    'paddle.clip({a}, -2.0, 2.0)', '{a} ** 2', 'paddle.sqrt({a}.abs() + 1.0)',
]
_TENSOR_WRITES = [
    '{t}.add_({u})', '{t}.scale_(0.5)', 'paddle.nn.functional.relu_({t})', '{t}[0] = {s}', '{t}[:, 1] = {u}[:, 0]',
    '{t}[1, ::2] = 0.25', '{t}.clip_(-1.0, 1.0)', '{t}[...] = {u} * 0.5', '{t}.subtract_({t})',
]
_TENSOR_BINARY = [
    '{a} + {b}', '{a} - {b}', '{a} * {b}', '{a} / ({b}.abs() + 1.0)', 'paddle.maximum({a}, {b})',
    'paddle.where({a} > {b}, {a}, {b})', 'paddle.minimum({a}, {b}) + 1', '({a} + {b}) * 0.5',
]
_TENSOR_SCALAR = ['{a} * {s}', '{a} + {s}', '{s} - {a}', '{a} / ({s} * {s} + 1)', '{a} * float({s})', '{a} * SCALE',
                  'sum([{a} * v for v in range(2)])', '{a} * len(lst)']
_INT_EXPR = [
    '{i} + {j}', '{i} - {j} * 2', '{i} * {j} % 7', '{i} // (abs({j}) + 1)', 'abs({i}) % 5', 'max({i}, {j})',
    'min({i}, {j}, 3)', 'len(lst)', '({i}, {j})[{k}]', 'int({fl})', '{i} if {b} else {j}', 'sum([{i}, {j}, 1])',
    'd["k0"] + {i}', 'len(d)', '{i} << 1', '({i} & 3) | 1', 'sum([v * 2 for v in lst if v > {i}])',
    'sum(v for v in lst)', 'len(lst[1:]) + {i}', 'max(lst + [{i}])', 'x.shape[0] + {i}', 'len(f"{{{i}}}-{{{b}}}")',
    'sum(dict(d).values())', 'len([k for k in d if k != "k0"])', '{i} * COUNT', 'lst.count({i})',
]
_FLOAT_EXPR = ['{fl} * 0.5 + {i}', 'float({i}) / (abs({fl}) + 1.0)', 'round({fl}, 2)', '{fl} - {i} * 0.25', 'abs({fl})', '{fl} ** 2']
_BOOL_EXPR = ['{i} > {j}', '{i} == {j}', '{b} and {i} < 3', 'not {b}', '{i} in (1, 2, 3)', '{b} or {i} % 2 == 0', 'len(lst) > 2',
              '0 < {i} < 5', '{i} in lst', '"k2" in d', 'isinstance({i}, int)', 'any(v < 0 for v in lst)']


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.lines = []
        self.indent = 1
        self.counter = 0
        self.tensors = ['x', 'y']
        self.ints = ['n']
        self.floats = ['r']
        self.bools = ['flag']
        self.helpers = []
        self.depth = 0

    # -- helpers -----------------------------------------------------------------------------
    def fresh(self, prefix):
        self.counter += 1
        return '%s%d' % (prefix, self.counter)

    def emit(self, line):
        self.lines.append('    ' * self.indent + line)

    def pick(self, xs):
        return self.rng.choice(xs)

    def int_expr(self):
        return self.pick(_INT_EXPR).format(i=self.pick(self.ints), j=self.pick(self.ints), k=self.rng.randint(0, 1),
                                           fl=self.pick(self.floats), b=self.pick(self.bools))

    def float_expr(self):
        return self.pick(_FLOAT_EXPR).format(fl=self.pick(self.floats), i=self.pick(self.ints))

    def bool_expr(self):
        return self.pick(_BOOL_EXPR).format(i=self.pick(self.ints), j=self.pick(self.ints), b=self.pick(self.bools))

    def tensor_expr(self):
        r = self.rng.random()
        if r < 0.4:
            return self.pick(_TENSOR_UNARY).format(a=self.pick(self.tensors))
        if r < 0.75:
            return self.pick(_TENSOR_BINARY).format(a=self.pick(self.tensors), b=self.pick(self.tensors))
        s = self.pick(self.ints + self.floats)
        return self.pick(_TENSOR_SCALAR).format(a=self.pick(self.tensors), s=s)

    # -- statements ----------------------------------------------------------------------------
    def assign(self, kind):
        name = self.fresh(kind[0])
        expr = {'t': self.tensor_expr, 'i': self.int_expr, 'f': self.float_expr, 'b': self.bool_expr}[kind[0]]()
        self.emit('%s = %s' % (name, expr))
        {'t': self.tensors, 'i': self.ints, 'f': self.floats, 'b': self.bools}[kind[0]].append(name)

    def reassign(self):
        """x = ... on an existing name (keeps the set of defined names the same in branches)."""
        kind = self.pick(['t', 'i', 'f'])
        pool = {'t': self.tensors, 'i': self.ints, 'f': self.floats}[kind]
        target = self.pick(pool)
        expr = {'t': self.tensor_expr, 'i': self.int_expr, 'f': self.float_expr}[kind]()
        if kind == 'i':
            expr = '(%s) %% 1000' % expr   # keep ints small across loops
        self.emit('%s = %s' % (target, expr))

    def block(self, n, only_reassign=True):
        self.indent += 1
        self.depth += 1
        saved = (list(self.tensors), list(self.ints), list(self.floats), list(self.bools))
        for _ in range(n):
            self.statement(only_reassign)
        # names first bound inside a block are not used after it (they may be unbound)
        self.tensors, self.ints, self.floats, self.bools = saved
        self.depth -= 1
        self.indent -= 1

    def statement(self, only_reassign=False):
        r = self.rng.random()
        nested = self.depth < 2
        if r < 0.22:
            self.reassign() if only_reassign else self.assign(self.pick(['t', 't', 'i', 'f', 'b']))
        elif r < 0.32 and nested:
            self.emit('if %s:' % self.bool_expr())
            self.block(self.rng.randint(1, 2))
            if self.rng.random() < 0.6:
                self.emit('else:')
                self.block(self.rng.randint(1, 2))
        elif r < 0.40 and nested:
            self.emit('if %s.sum() > %s:' % (self.pick(self.tensors), self.pick(['0', '0.5', '-1', 'n'])))
            self.block(self.rng.randint(1, 2))
            self.emit('else:')
            self.block(1)
        elif r < 0.50 and nested:
            var = self.fresh('k')
            self.emit('for %s in range(%s):' % (var, self.pick(['2', '3', 'n % 3 + 1', 'len(lst) % 4'])))
            self.ints.append(var)
            self.block(self.rng.randint(1, 3))
            self.ints.remove(var)
        elif r < 0.60:
            self.list_mutation()
        elif r < 0.66:
            self.dict_mutation()
        elif r < 0.74:
            self.call_helper()
        elif r < 0.82 and nested:
            self.closure()
        elif r < 0.87:
            name = self.fresh('p')
            self.emit('%s = (%s, %s)' % (name, self.pick(self.tensors), self.pick(self.ints)))
            a, b = self.fresh('t'), self.fresh('i')
            self.emit('%s, %s = %s' % (a, b, name))
            if not only_reassign:
                self.tensors.append(a)
                self.ints.append(b)
        elif r < 0.90:
            self.emit('print("v", %s, %s)' % (self.pick(self.ints), self.pick(self.bools)))
        elif r < 0.93:
            name = self.fresh('f')
            self.emit('%s = round(%s.mean().item(), 3)' % (name, self.pick(self.tensors)))
            if not only_reassign:
                self.floats.append(name)
        elif r < 0.945 and nested:
            self.extra_statement()
        elif r < 0.96 and nested:
            var = self.fresh('w')
            self.emit('%s = 0' % var)
            self.emit('while %s < %s:' % (var, self.pick(['2', 'n % 3'])))
            self.indent += 1
            self.emit('%s += 1' % var)
            self.indent -= 1
            self.block(1)
        else:
            self.reassign()

    def extra_statement(self):
        """Loops with break/continue/early return, iteration helpers, globals, calls with * and
        keywords, tensor-conditioned while loops."""
        r = self.rng.random()
        i = self.pick(self.ints)
        if r < 0.2:
            var = self.fresh('k')
            self.emit('for %s, %s in enumerate(list(lst)):' % (var, self.fresh('v')))
            self.indent += 1
            self.emit('if %s > %s:' % (var, self.pick(['1', '2', i])))
            self.emit('    %s' % self.pick(['break', 'continue']))
            self.indent -= 1
            self.block(1)
        elif r < 0.35:
            self.emit('for %s, %s in sorted(d.items()):' % (self.fresh('key'), self.fresh('val')))
            self.block(1)
        elif r < 0.5:
            self.emit('if %s:' % self.bool_expr())
            self.indent += 1
            self.emit('return (%s, %s, lst, d)' % (self.pick(self.tensors), self.pick(self.ints)))
            self.indent -= 1
        elif r < 0.57:
            # tensor writes: inplace ops and item assignment (functionalized when nothing else
            # views the tensor, concrete otherwise); the arguments are compared afterwards too
            t, u = self.pick(self.tensors), self.pick(self.tensors)
            self.emit(self.pick(_TENSOR_WRITES).format(t=t, u=u, s=self.pick(self.floats)))
        elif r < 0.65:
            self.emit('COUNT = COUNT + %s %% 3' % i)
        elif r < 0.8 and self.helpers:
            name, kinds = self.pick(self.helpers)
            out = self.fresh('t')
            if kinds == 'ti' and self.rng.random() < 0.3:
                self.emit('%s = %s(%s, **{"k": %s})' % (out, name, self.pick(self.tensors), i))
            elif kinds == 'ti':
                self.emit('%s = %s(%s, k=%s)' % (out, name, self.pick(self.tensors), i))
            else:
                self.emit('%s = %s(%s, %s, *lst[:2])' % (out, name, self.pick(self.tensors), self.pick(self.tensors)))
            self.tensors.append(out)
        elif r < 0.9:
            t, w = self.pick(self.tensors), self.fresh('w')
            self.emit('%s = 0' % w)
            self.emit('while %s.abs().sum() < 50 and %s < 3:' % (t, w))
            self.indent += 1
            self.emit('%s += 1' % w)
            self.emit('%s = %s * 2 + 1' % (t, t))
            self.indent -= 1
        elif r < 0.93:
            alias = self.fresh('al')
            self.emit('%s = lst' % alias)
            self.emit('%s.append(%s)' % (alias, i))
            self.emit('d["k3"] = [%s, %s]' % (i, self.pick(self.ints)))
            self.emit('d["k3"].append(len(%s))' % alias)
        elif r < 0.96:
            st = self.fresh('s')
            self.emit('%s = set(lst)' % st)
            self.emit('%s.add(%s)' % (st, i))
            self.emit('%s = len(%s) + sorted(%s)[0]' % (self.pick(self.ints), st, st))
        elif r < 0.98:
            self.emit('print("t", %s)' % self.pick(self.tensors))
        else:
            head, rest = self.fresh('i'), self.fresh('rest')
            self.emit('%s, *%s = lst + [%s, 1]' % (head, rest, i))
            self.emit('%s = %s + len(%s)' % (self.pick(self.ints) if len(self.ints) > 1 else head, head, rest))

    def list_mutation(self):
        i = self.pick(self.ints)
        self.emit(self.pick([
            'lst.append(%s)' % i,
            'lst.extend([%s, 1])' % i,
            'lst.insert(0, %s %% 9)' % i,
            'if lst:\n%s    lst.pop()' % ('    ' * self.indent),
            'if lst:\n%s    lst[%s %% len(lst)] = %s' % ('    ' * self.indent, i, self.pick(self.ints)),
            'lst.reverse()',
            'lst += [%s]' % i,
        ]))

    def dict_mutation(self):
        self.emit(self.pick([
            'd["k%d"] = %s' % (self.rng.randint(0, 3), self.pick(self.ints)),
            'd["k0"] = d.get("k0", 0) + 1',
            'd.update(k1=%s)' % self.pick(self.ints),
            'd.setdefault("k2", %s)' % self.pick(self.ints),
        ]))

    def call_helper(self):
        if not self.helpers:
            return self.reassign()
        name, kinds = self.pick(self.helpers)
        args = [self.pick(self.tensors) if k == 't' else self.pick(self.ints) for k in kinds]
        out = self.fresh('t')
        self.emit('%s = %s(%s)' % (out, name, ', '.join(args)))
        self.tensors.append(out)

    def closure(self):
        name = self.fresh('g')
        cap_t, cap_i = self.pick(self.tensors), self.pick(self.ints)
        acc = self.fresh('acc')
        self.emit('%s = 0' % acc)
        self.emit('def %s(v):' % name)
        self.indent += 1
        self.emit('nonlocal %s' % acc)
        self.emit('%s = %s + 1' % (acc, acc))
        self.emit('return v * %s + %s' % (cap_i, cap_t))
        self.indent -= 1
        out = self.fresh('t')
        self.emit('%s = %s(%s)' % (out, name, self.pick(self.tensors)))
        self.emit('%s = %s(%s)' % (out, name, out))
        self.tensors.append(out)
        self.ints.append(acc)

    # -- the module ------------------------------------------------------------------------------
    _HELPERS = [
        ('ti', 'def {n}(a, k=2):\n    if k > 3:\n        return a * k\n    return a + k\n'),
        ('tt', 'def {n}(a, b, *rest):\n    return paddle.maximum(a, b) - len(rest)\n'),
        # breaks inside an inlined frame
        ('ti', 'def {n}(a, k=2):\n    print("in {n}", k)\n    return a * (k % 3)\n'),
        ('tt', 'def {n}(a, b):\n    if (a - b).sum() > 0:\n        return a\n    return b * 2\n'),
        # side effects and errors in an inlined frame
        ('ti', 'def {n}(a, k=2):\n    LOG.append(k)\n    if k > 7:\n        raise ValueError("k too big: %d" % k)\n    return a - k\n'),
        ('ti', 'def {n}(a, k=2, **kw):\n    s = sum(kw.values()) + len(LOG)\n    return a * s + k\n'),
    ]

    def helper_defs(self):
        out = []
        for h in range(self.rng.randint(1, 3)):
            name = 'helper%d' % h
            kinds, text = self.pick(self._HELPERS)
            out.append(text.format(n=name))
            self.helpers.append((name, kinds))
        return out

    def module(self):
        header = ['import paddle\n\nSCALE = %s\nCOUNT = 0\nLOG = []\n' % self.pick(['1.5', '2', '-0.5'])] + self.helper_defs()
        self.emit('global COUNT')
        for _ in range(self.rng.randint(4, 12)):
            self.statement()
        rets = [self.pick(self.tensors) for _ in range(2)] + [self.pick(self.ints), self.pick(self.floats), self.pick(self.bools)]
        self.emit('return (%s, lst, d)' % ', '.join(rets))
        body = 'def f(x, y, n, r, flag, lst, d):\n' + '\n'.join(self.lines) + '\n'
        return ''.join(h + '\n' for h in header) + '\n' + body


def generate(seed):
    """The source text of a random module defining f(x, y, n, r, flag, lst, d)."""
    return Gen(seed).module()
