// The files of Paddle's test/sot that issue 11 lists (run unchanged under `skiff run` by
// scripts/paddle_sot_suite.ts; the result is test/sot/paddle_suite.csv).
const NUMBERED = [
  '01_basic', '02_store_inplace', '03_tuple', '04_list', '05_dict', '06_call_function', '07_unpack', '08_rot',
  '09_f_string', '10_build_unpack', '11_jumps', '12_for_loop', '13_make_function', '14_operators', '15_slice',
  '16_paddle_api', '17_paddle_layer', '18_tensor_method', '19_closure', '20_string', '21_global', '22_generator',
  '23_super', '24_exceptions', '25_import',
];
const NAMED = [
  'builtin_bool', 'builtin_dispatch', 'builtin_map', 'builtin_range', 'builtin_zip', 'call_object', 'collections_namedtuple',
  'constant_graph', 'dataclass', 'delete_fast', 'dup_top', 'enum', 'enumerate', 'error_handling', 'force_breakgraph_api',
  'functools', 'guard_outputs', 'guard_user_defined_fn', 'guard_global_status', 'iter', 'multiple_args', 'output_restoration',
  'patched_method', 'psdb', 'resume_cache', 'side_effects', 'str_format', 'tensor_slice', 'unsupported_function',
  'sot_exception', 'no_grad', 'inplace_api', 'dtype', 'numpy', 'break_graph', 'min_graph_size', 'model_switch_training',
  'sot_resnet', 'segment_linear',
];

/** File names (test_<name>.py), in the order. */
export const PADDLE_SOT_FILES: readonly string[] = [...NUMBERED, ...NAMED].map((n) => `test_${n}.py`);

/** The helper module the files import (fetched with them, not a test file itself). */
export const PADDLE_SOT_HELPERS: readonly string[] = ['test_case_base.py'];

/**
 * Files written against a newer test_case_base.py than the others: no single Paddle commit's
 * helper serves every file (the newer one adds `assert_results_with_grad` and drops
 * `test_with_faster_guard`, which older files import). Such a file is fetched, together with
 * the test_case_base.py of its own commit, into this subfolder of the scratch folder, and runs there.
 */
export const PADDLE_SOT_SUBDIRS: Readonly<Record<string, string>> = { 'test_no_grad.py': 'newer' };

export const CSV_HEADER = 'file,result,tests_run,tests_passed,reason';
export const RESULTS = ['pass', 'fail', 'error', 'missing'] as const;
