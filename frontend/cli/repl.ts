// `skiff python`: a line REPL. Each line goes to Python's code.InteractiveConsole
// (compat/_skiff/repl.py) as one string; prompts are shown only on a terminal.
import { createInterface } from 'node:readline';
import type { PythonHost } from '../python/host.js';

export async function runRepl(host: PythonHost): Promise<number> {
  host.mount(process.cwd());
  const banner = host.call<string>('_skiff.repl', 'start', host.fsPathOf(process.cwd()));
  const tty = Boolean(process.stdin.isTTY);
  if (tty) process.stdout.write(`${banner}\n`);
  const rl = createInterface({ input: process.stdin, output: tty ? process.stdout : undefined, terminal: tty, prompt: '>>> ' });
  let code = 0;
  const done = new Promise<void>((resolve) => {
    const prompt = (more: boolean) => { if (tty) { rl.setPrompt(more ? '... ' : '>>> '); rl.prompt(); } };
    rl.on('line', (line) => {
      const r = host.call<string>('_skiff.repl', 'push', line);
      if (r.startsWith('exit:')) { code = Number(r.slice(5)); rl.close(); return; }
      prompt(r === 'more');
    });
    rl.on('SIGINT', () => { host.call('_skiff.repl', 'interrupt'); prompt(false); });
    rl.on('close', () => resolve());
    prompt(false);
  });
  await done;
  if (tty) process.stdout.write('\n');
  host.call('_skiff.runner', 'flush');
  return code;
}
