"""Constructor-argument binding shared by the table-made layers (activation.py, loss.py).

Both build Layer classes from a (name, default) list; binding positional and keyword arguments
against it in one place keeps their TypeErrors worded like each other (and like Python's)."""


def bind_args(cls_name, params, args, kwargs):
    """The layer's settings: `params` ((name, default), ...) overridden by `args` in order and
    then by `kwargs`; too many positionals or an unknown keyword raise TypeError."""
    names = [p for p, _ in params]
    if len(args) > len(names):
        raise TypeError('%s takes at most %d arguments' % (cls_name, len(names)))
    vals = dict(params)
    vals.update(zip(names, args))
    for k, v in kwargs.items():
        if k not in vals:
            raise TypeError("%s got an unexpected keyword argument '%s'" % (cls_name, k))
        vals[k] = v
    return vals
