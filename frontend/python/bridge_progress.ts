// Progress bars for paddle.Model.fit/evaluate/predict (compat/paddle/hapi/progressbar.py):
// Python computes the numbers and the text (loss, metrics, steps/s); cli-progress draws the
// bar on the terminal. Only used when stdout is a TTY: otherwise Python prints plain lines
// (CI logs), which also keeps the output in Python's own stream for tests that capture it.
// SKIFF_PROGRESS=0 forces plain lines, SKIFF_PROGRESS=1 forces bars.
import cliProgress from 'cli-progress';

export function progressCalls(fail: (e: unknown) => 0): Record<string, unknown> {
  const bars = new Map<number, cliProgress.SingleBar>();
  let next = 1;
  return {
    progress_tty: (): boolean => {
      const env = process.env.SKIFF_PROGRESS;
      if (env === '0' || env === '1') return env === '1';
      return Boolean(process.stdout.isTTY);
    },
    /** A bar of `total` steps (0: unknown, no bar drawn) titled `title`; returns its id. */
    progress_start: (title: string, total: number, text: string): number => {
      try {
        const known = total > 0;
        const bar = new cliProgress.SingleBar({
          format: known ? `${title} [{bar}] {value}/{total} {text}` : `${title} step {value} {text}`,
          stream: process.stdout, hideCursor: true, clearOnComplete: false, barsize: 24, fps: 8, noTTYOutput: true,
        }, cliProgress.Presets.shades_classic);
        bar.start(known ? total : 1e12, 0, { text });
        bars.set(next, bar);
        return next++;
      } catch (e) { return fail(e); }
    },
    progress_update: (id: number, value: number, text: string): number => {
      try { bars.get(id)?.update(value, { text }); return 1; } catch (e) { return fail(e); }
    },
    /** Draws the last state and leaves the line on screen. */
    progress_stop: (id: number, value: number, text: string): number => {
      try {
        const bar = bars.get(id);
        if (bar) {
          if (value >= 0) bar.update(value, { text });
          bar.stop();
          bars.delete(id);
        }
        return 1;
      } catch (e) { return fail(e); }
    },
  };
}
