"""ndarray's methods that are module functions in disguise (a.sum() is np.sum(a)), attached
once at import so the class body in _array.py stays about storage and conversions."""
from . import _linalg_core as L
from . import _manip as M
from . import _reduce as R
from . import _sort as S
from . import _ufuncs as U
from ._array import ndarray


def _m(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


def install():
    U.install(ndarray)
    for name, fn in (('sum', R.sum), ('mean', R.mean), ('std', R.std), ('var', R.var), ('max', R.max), ('min', R.min),
                     ('argmax', R.argmax), ('argmin', R.argmin), ('prod', R.prod), ('cumsum', R.cumsum), ('all', R.all),
                     ('any', R.any), ('clip', U.clip), ('round', U.around), ('dot', L.dot), ('transpose', M.transpose),
                     ('swapaxes', M.swapaxes), ('squeeze', M.squeeze), ('flatten', M.flatten), ('ravel', M.ravel),
                     ('repeat', M.repeat), ('nonzero', S.nonzero), ('trace', L.trace), ('diagonal', L.diagonal)):
        setattr(ndarray, name, _m(fn))

    def reshape(self, *shape, order='C', copy=None):
        return M.reshape(self, *shape, order=order)
    ndarray.reshape = reshape

    def sort(self, axis=-1, kind=None, order=None, stable=None):
        """In place, as numpy's ndarray.sort."""
        self[...] = S.sort(self, axis, kind, order)
    ndarray.sort = sort

    def argsort(self, axis=-1, kind=None, order=None, stable=None):
        return S.argsort(self, axis, kind, order)
    ndarray.argsort = argsort

    def searchsorted(self, v, side='left', sorter=None):
        return S.searchsorted(self, v, side, sorter)
    ndarray.searchsorted = searchsorted

    def cumprod(self, axis=None, dtype=None, out=None):
        from ._misc import cumprod as _cumprod
        r = _cumprod(self, axis, dtype)
        return r if out is None else R._to_out(r, out)
    ndarray.cumprod = cumprod

    def ptp(self, axis=None, keepdims=False):
        return R.max(self, axis, keepdims=keepdims) - R.min(self, axis, keepdims=keepdims)
    ndarray.ptp = ptp
