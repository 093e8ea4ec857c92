"""Writes the .pdparams/.pdopt fixtures with real numpy (run with a host Python that has numpy,
e.g. Debian's /usr/bin/python3 with python3-numpy: `/usr/bin/python3 gen_fixtures.py`).

They mirror what PaddlePaddle 2.6's paddle.save writes: a pickle (protocol 4 by default, 2 also
accepted) of a dict name -> numpy array, where a Layer's state dict also carries
'StructuredToParameterName@@' (structured name -> parameter name), and an optimizer's state
holds numpy arrays, plain numbers and an 'LR_Scheduler' dict. One file splits a parameter the
way paddle.save does for protocol 2/3 and very large arrays ('UnpackBigParamInfor@@').
"""
import pickle

import numpy as np

rng = np.random.RandomState(7)
state = {
    'fc.weight': rng.standard_normal((4, 3)).astype('float32'),
    'fc.bias': np.arange(3, dtype='float32') / 4,
    'bn._mean': np.zeros(3, dtype='float32'),
    'bn._variance': np.ones(3, dtype='float32'),
    'emb.weight': rng.standard_normal((5, 2)).astype('float64'),
    'steps': np.array([7], dtype='int64'),
    'mask': np.array([[True, False], [False, True]]),
    'half': np.array([0.5, -2.0], dtype='float16'),
    'StructuredToParameterName@@': {'fc.weight': 'linear_0.w_0', 'fc.bias': 'linear_0.b_0', 'emb.weight': 'embedding_0.w_0'},
}
with open('layer.pdparams', 'wb') as f:
    pickle.dump(state, f, protocol=4)
with open('layer_protocol2.pdparams', 'wb') as f:
    pickle.dump(state, f, protocol=2)

opt = {
    'linear_0.w_0_moment1_0': np.full((4, 3), 0.25, dtype='float32'),
    'linear_0.w_0_beta1_pow_acc_0': np.array([0.81], dtype='float32'),
    'global_step': 3,
    'LR_Scheduler': {'last_epoch': 3, 'last_lr': 0.05},
    'scale': np.float32(0.5),
}
with open('adam.pdopt', 'wb') as f:
    pickle.dump(opt, f, protocol=4)

big = np.arange(10, dtype='float32').reshape(2, 5)
flat = big.reshape(-1)
split = {
    'w@@.0': flat[:6], 'w@@.1': flat[6:],
    'UnpackBigParamInfor@@': {'w': {'OriginShape': (2, 5), 'slices': ['w@@.0', 'w@@.1']}},
}
with open('split.pdparams', 'wb') as f:
    pickle.dump(split, f, protocol=2)


class Evil:
    def __reduce__(self):
        import os
        return (os.system, ('echo pwned',))


with open('hostile.pdparams', 'wb') as f:
    pickle.dump({'w': Evil()}, f, protocol=4)

with open('layer.pdparams', 'rb') as f:
    whole = f.read()
with open('truncated.pdparams', 'wb') as f:
    f.write(whole[: len(whole) // 2])
