"""Writes expected.json (and the .npy fixtures) from REAL numpy: run with the host's python3
(Debian's python3-numpy), not inside Skiff. The committed outputs let the differential test
run where real numpy is absent.

    python3 test/python/cases/numpy_fixtures/gen_expected.py
"""
import json
import os
import sys
import warnings

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True   # no __pycache__ next to the fixtures
sys.path.insert(0, here)
import numpy_cases  # noqa: E402


def main():
    warnings.simplefilter('ignore')
    out = {'numpy_version': np.__version__, 'cases': {}}
    for group, fns in numpy_cases.CASES.items():
        out['cases'][group] = [numpy_cases.run_case(np, fn) for fn in fns]
    with open(os.path.join(here, 'expected.json'), 'w') as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write('\n')
    # .npy files real numpy wrote, for Skiff to read
    np.save(os.path.join(here, 'real_f32.npy'), (np.arange(12, dtype=np.float32) - 4).reshape(3, 4) / 3)
    np.save(os.path.join(here, 'real_i64.npy'), np.arange(-3, 3, dtype=np.int64))
    np.save(os.path.join(here, 'real_bool.npy'), np.array([[True, False], [False, True]]))
    np.save(os.path.join(here, 'real_f16.npy'), np.array([0.5, -2.0, 65504.0], dtype=np.float16))
    np.save(os.path.join(here, 'real_u8_0d.npy'), np.array(200, dtype=np.uint8))
    np.save(os.path.join(here, 'real_f64_fortran.npy'), np.asfortranarray(np.arange(6.0).reshape(2, 3)))
    np.save(os.path.join(here, 'real_f64_big_endian.npy'), np.arange(3.0).astype('>f8'))
    np.save(os.path.join(here, 'real_empty.npy'), np.zeros((0, 2), dtype=np.int32))
    np.savez(os.path.join(here, 'real.npz'), w=np.arange(6.0).reshape(2, 3), ids=np.array([3, 1], dtype=np.int32))
    print('wrote expected.json with %d groups' % len(out['cases']))


if __name__ == '__main__':
    main()
