// One import per family file of op records.
import './binary.js';
import './creation.js';
import './shape_view.js';
import './shape_slice.js';
import './shape_join.js';
import './index_gather.js';
import './shape_create.js';
import './nn_conv.js';
import './nn_pool.js';
import './nn_norm.js';
import './nn_loss.js';
import './random.js';
import './unary.js';
import './ternary.js';
import './reduce.js';
import './matmul.js';
