import { paddle } from '../src/paddle.js';
const m = paddle.to_tensor([[1, 5, 2, 0], [7, 0, 3, 9], [4, 4, 8, 1]], 'float32');
console.log(paddle.max(m, 0).tolist(), paddle.max(m, 1).tolist(), paddle.min(m, 0).tolist());
const data = new Float32Array(300 * 37); for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 1000;
const big = paddle.to_tensor(data).reshape ? null : null;
console.log('ok');
