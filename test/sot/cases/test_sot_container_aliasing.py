"""Translator: a list, dict or object made by translated code and reachable from two places
where a graph break hands the frames over (two names, a name and a container item, a name and
an attribute, the same list twice in the returned value) is one object, as in eager: a mutation
after the break is seen through every path. Each row runs eagerly and translated, twice (the
second call runs the cached tree), and compares values, and which returned parts are the same
object. Breaks: print(), Tensor.numpy(), Tensor.item().
"""
import paddle
from sot_check import check, count, same, t


class Holder:
    pass


def local_and_tuple_item(x):
    a = [x]
    t = (a, 1)
    print('break')
    a.append(1)
    return t, a


def local_and_list_item(x):
    a = [x]
    outer = [a, 2]
    x.numpy()
    outer[0].append(3)
    return a, outer


def two_names(x):
    a = [x]
    b = a
    print('break')
    a.append(2)
    return b


def list_in_dict_and_local(x):
    a = [x]
    d = {'k': a}
    x.numpy()
    a.append(3)
    return d


def dict_in_list_and_local(x):
    d = {'n': 1}
    lst = [d, x]
    n = x.sum().item()
    d['m'] = n > 0
    return lst


def list_held_by_object(x):
    a = [x]
    h = Holder()
    h.items = a
    print('break')
    a.append(4)
    return h.items, a


def list_held_by_object_in_tuple(x):
    a = [x]
    h = Holder()
    h.items = a
    t = (h,)
    print('break')
    a.append(4)
    return t[0].items


def mutated_through_item_after_break(x):
    a = [x]
    t = (a, a)
    print('break')
    t[0].append(x * 2)
    t[1].append(5)
    return a, t


def two_breaks(x):
    a = [x]
    t = (a,)
    print('break 1')
    a.append(1)
    x.numpy()
    t[0].append(2)
    return a


def returned_twice(x):
    a = [x * 2]
    return a, a


def returned_in_object_and_plain(x):
    a = [x]
    h = Holder()
    h.items = a
    return h, a


def handed_to_python_and_kept(x):
    a = [x]
    t = (a,)
    print(len(a))
    a.append(1)
    return t


def set_in_tuple_and_local(x):
    s = {1}
    t = (s, x)
    print('break')
    s.add(2)
    return t


def iterator_in_tuple_and_local(x):
    it = iter([1, 2, 3])
    t = (it,)
    print('break')
    first = next(it)
    return first, list(t[0])


def reaches_itself_through_a_dict(x):
    a = [x]
    d = {'a': a}
    a.append(d)
    print('break')
    a.append(5)
    return len(d['a'])


ROWS = [
    local_and_tuple_item, local_and_list_item, two_names, list_in_dict_and_local, dict_in_list_and_local,
    list_held_by_object, list_held_by_object_in_tuple, mutated_through_item_after_break, two_breaks,
    returned_twice, returned_in_object_and_plain, handed_to_python_and_kept, set_in_tuple_and_local,
    iterator_in_tuple_and_local, reaches_itself_through_a_dict,
]


def _ids(v, out):
    """Positions of every list, dict and object in v (depth first), to compare which are the same."""
    if isinstance(v, (list, dict, Holder)):
        out.append(id(v))
        if any(id(v) == i for i in out[:-1]):
            return
    if isinstance(v, (list, tuple)):
        for x in v:
            _ids(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _ids(x, out)
    elif isinstance(v, Holder):
        for x in vars(v).values():
            _ids(x, out)


def _shape(v):
    """Which containers of v are the same object: ids renumbered by first sighting."""
    ids = []
    _ids(v, ids)
    first = {}
    return [first.setdefault(i, len(first)) for i in ids]


def _plain(v):
    if isinstance(v, Holder):
        return ('Holder', {k: _plain(x) for k, x in vars(v).items()})
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def test_shared_containers_table():
    failures = []
    for fn in ROWS:
        sf = paddle.jit.to_static(fn)
        for call in range(2):
            x = paddle.to_tensor([1.0, -2.0, 3.0])
            want = fn(x)
            got = sf(x)
            try:
                if not isinstance(want, (list, tuple, dict, Holder)) or (isinstance(want, tuple) and not any(isinstance(w, (list, dict, Holder, tuple)) for w in want)):
                    same(got, want)
                else:
                    same(_plain(got), _plain(want))
                assert _shape(got) == _shape(want), 'same-object structure %r vs %r' % (_shape(got), _shape(want))
            except (AssertionError, RecursionError) as e:
                failures.append('%s (call %d): %s' % (fn.__name__, call + 1, e))
    assert not failures, '\n'.join(failures)


def test_shared_list_is_not_translated_per_call():
    """The shared list crosses the break as one value of the parent's run, not as an object
    guarded by identity: one translation per segment, later calls hit the cache."""
    for fn, segments in ((local_and_tuple_item, 2), (list_in_dict_and_local, 2), (two_breaks, 3),
                         (mutated_through_item_after_break, 2), (dict_in_list_and_local, 2)):
        sf = check(fn, *[(t([1.0, -2.0, 3.0]),)] * 4)
        assert count(sf) == segments, '%s: %d translations, expected %d' % (fn.__name__, count(sf), segments)


def _shared_on_one_path(x, flag):
    a = [x]
    if flag:
        t = (a, 1)
    else:
        t = ([x], 1)
    print('break')   # the same layout from both paths; `flag` is dead here
    a.append(1)
    return t


def test_code_after_the_break_is_not_shared_across_different_sharing():
    """The two paths leave the same layout, so the code after the break may be shared between
    them (resume cache), but one path hands over one list twice and the other two lists: the
    child guards which entry values are the same list, and each path gets its own."""
    sf = paddle.jit.to_static(_shared_on_one_path)
    for flag in (True, False, True, False):
        x = t([1.0])
        same(sf(x, flag), _shared_on_one_path(x, flag))
    assert count(sf) == 4, count(sf)
