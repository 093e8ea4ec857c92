// The `skiff` command.
//   skiff run script.py [args...]     run a Python script as __main__ (exit code = Python's)
//   skiff run -c "code" [args...]     run a program passed as a string
//   skiff run --profile [--profile-trace out.json] script.py   per-op profile table (and Chrome trace)
//   skiff graph script.py [--format html|dot|svg] [-o out]      view the graphs to_static captured
//   skiff python                      interactive Python with `paddle` importable
//   skiff infer model.pir --input x=file.npy|random:1x3x28x28 [--bench N]   run a saved model
//   skiff export model.py --input-spec x:float32:-1x1x28x28 [--format pir|onnx] [-o path] [--layer NAME]
// --python 3.12|3.13|3.14 (or SKIFF_PYTHON) picks the interpreter; default 3.13.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { loadPython } from '../python/host.js';
import { PYTHON_VERSIONS } from '../python/versions.js';
import { runRepl } from './repl.js';
import { type InferOptions, runInfer } from './infer.js';
import { type ExportOptions, EXPORT_FORMATS, exportRequest, runExport } from './export.js';
import { Collector, setActiveCollector } from '../../src/profiler/profiler.js';
import { renderViz, VIZ_FORMATS, type VizFormat } from '../../src/viz/index.js';
import { functionToViz } from '../../sot/graph_view.js';

const versions = PYTHON_VERSIONS.map((v) => v.version).join(', ');

function finish(code: number): never {
  process.exit(code);
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('skiff')
    .description('Skiff: a Paddle-compatible deep-learning runtime for Node.js')
    .option('--python <version>', `Python version (${versions}; default SKIFF_PYTHON or 3.13)`)
    .enablePositionalOptions();

  program
    .command('run')
    .description('run a Python script (or -c code) with the paddle package')
    .option('--python <version>', `Python version (${versions})`)
    .option('-c, --code <code>', 'program passed in as a string')
    .option('--profile', 'print a per-op profile (eager ops, captured graphs, translation) to stderr at exit')
    .option('--profile-trace <file>', 'also write a Chrome trace JSON (Perfetto format); implies --profile')
    .argument('[script]', 'the Python file to run')
    .argument('[args...]', 'arguments for the script (sys.argv[1:])')
    .passThroughOptions()
    .action(async (script: string | undefined, args: string[], opts: { python?: string; code?: string; profile?: boolean; profileTrace?: string }) => {
      const version = opts.python ?? program.opts().python;
      if (opts.code === undefined && !script) program.error('skiff run: give a script path or -c "code"');
      if (opts.code === undefined && !(existsSync(script as string) && statSync(script as string).isFile())) {
        // what `python missing.py` says, before paying for a Pyodide start
        process.stderr.write(`skiff: can't open file '${resolve(script as string)}': [Errno 2] No such file or directory\n`);
        finish(2);
      }
      const host = await loadPython({ version });
      // The profile covers the script, not the interpreter start.
      const prof = opts.profile || opts.profileTrace ? new Collector() : null;
      if (prof) setActiveCollector(prof);
      const code = opts.code !== undefined
        ? host.runCode(opts.code, script ? [script, ...args] : args)
        : host.runFile(script as string, args);
      if (prof) {
        host.flush();
        setActiveCollector(null);
        process.stderr.write(`${prof.summary()}\n`);
        if (opts.profileTrace) {
          writeFileSync(opts.profileTrace, JSON.stringify(prof.trace()));
          process.stderr.write(`skiff: trace written to ${resolve(opts.profileTrace)} (open it in https://ui.perfetto.dev or chrome://tracing)\n`);
        }
      }
      finish(code);
    });

  program
    .command('graph')
    .description('run a Python script and write the graphs paddle.jit.to_static captured (HTML viewer, Graphviz dot or SVG)')
    .option('--python <version>', `Python version (${versions})`)
    .option('--format <format>', `output format: ${VIZ_FORMATS.join(', ')}`, 'html')
    .option('-o, --output <file>', 'output file (default <script>.graphs.<format>)')
    .argument('<script>', 'the Python file to run')
    .argument('[args...]', 'arguments for the script (sys.argv[1:])')
    .passThroughOptions()
    .action(async (script: string, args: string[], opts: { python?: string; format: string; output?: string }) => {
      if (!(VIZ_FORMATS as readonly string[]).includes(opts.format)) program.error(`skiff graph: --format must be one of ${VIZ_FORMATS.join(', ')}, got '${opts.format}'`);
      if (!(existsSync(script) && statSync(script).isFile())) {
        process.stderr.write(`skiff: can't open file '${resolve(script)}': [Errno 2] No such file or directory\n`);
        finish(2);
      }
      const host = await loadPython({ version: opts.python ?? program.opts().python });
      const code = host.runFile(script, args);
      host.flush();
      const fns = host.sot ? host.sot.runtime().viewFunctions().map(functionToViz) : [];
      const out = opts.output ?? `${basename(script).replace(/\.py$/, '')}.graphs.${opts.format}`;
      writeFileSync(out, renderViz({ title: `skiff graph ${basename(script)}`, functions: fns }, opts.format as VizFormat));
      const graphs = fns.reduce((a, f) => a + f.segments.filter((s) => s.graph).length, 0);
      process.stderr.write(`skiff: ${fns.length} translated function${fns.length === 1 ? '' : 's'}, ${graphs} graph${graphs === 1 ? '' : 's'} written to ${resolve(out)}` +
        `${fns.length ? '' : ' (the script called nothing through paddle.jit.to_static)'}\n`);
      finish(code);
    });

  program
    .command('infer')
    .description('run a model saved by paddle.jit.save (model.pir + model.pdiparams): print its outputs, or latency with --bench')
    .argument('<model>', 'the .pir file (or the path prefix given to paddle.jit.save)')
    .option('-i, --input <name=spec...>', "inputs: name=file.npy or name=random:1x3x28x28 (repeat per input)")
    .option('--bench <N>', 'time N runs and print latency percentiles instead of outputs')
    .action((model: string, opts: InferOptions) => {
      process.stdout.write(`${runInfer(model, opts)}\n`);
      finish(0);
    });

  program
    .command('export')
    .description("export a Python script's model (global `model`, `build()`'s result, or --layer NAME) with paddle.jit.save or paddle.onnx.export")
    .option('--python <version>', `Python version (${versions})`)
    .argument('<script>', 'the Python file defining the model')
    .option('-s, --input-spec <spec...>', 'one per forward argument: [name:][dtype:]shape, dims joined by x, -1 or None symbolic (x:float32:-1x1x28x28)')
    .option('-f, --format <format>', `${EXPORT_FORMATS.join(' or ')}: path.pir + path.pdiparams, or path.onnx`, 'pir')
    .option('-o, --output <path>', 'output path prefix (default: the script name without .py, in the current directory)')
    .option('--layer <name>', 'the global to export (default `model`, else `build()`)')
    .option('--opset <n>', 'ONNX opset (13..18)', '17')
    .action(async (script: string, opts: ExportOptions & { python?: string }) => {
      if (!(existsSync(script) && statSync(script).isFile())) {
        process.stderr.write(`skiff: can't open file '${resolve(script)}': [Errno 2] No such file or directory\n`);
        finish(2);
      }
      exportRequest(script, opts); // bad options fail before the interpreter starts
      const host = await loadPython({ version: opts.python ?? program.opts().python });
      const code = runExport(host, script, opts);
      host.flush();
      finish(code);
    });

  program
    .command('python')
    .description('interactive Python (a line REPL) with the paddle package')
    .option('--python <version>', `Python version (${versions})`)
    .action(async (opts: { python?: string }) => {
      const host = await loadPython({ version: opts.python ?? program.opts().python });
      finish(await runRepl(host));
    });

  return program;
}

export async function main(argv: readonly string[] = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync([...argv]);
  } catch (e) {
    const msg = (e as Error).message;
    process.stderr.write(msg.startsWith('skiff:') ? `${msg}\n` : `skiff: ${msg}\n`);
    process.exit(2);
  }
}

// Run when executed directly (tsx frontend/cli/main.ts, node dist/cli.js); bin/skiff.js calls main().
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
