// Which Pyodide serves which Python. Each version is a pinned npm alias of `pyodide`
// (package.json: py310 = pyodide@0.22.1, py311 = 0.25.1, py312 = 0.27.7, py313 = 0.29.5, py314 = 314.0.8); one per process.

export interface PythonVersion {
  /** '3.13' */
  readonly version: string;
  /** npm alias that holds the matching Pyodide build. */
  readonly pkg: string;
  /** Pyodide >= 0.28 has mountNodeFS and converts JS null to `jsnull` rather than None. */
  readonly pyodide: string;
}

export const PYTHON_VERSIONS: readonly PythonVersion[] = [
  { version: '3.10', pkg: 'py310', pyodide: '0.22.1' },
  { version: '3.11', pkg: 'py311', pyodide: '0.25.1' },
  { version: '3.12', pkg: 'py312', pyodide: '0.27.7' },
  { version: '3.13', pkg: 'py313', pyodide: '0.29.5' },
  { version: '3.14', pkg: 'py314', pyodide: '314.0.8' },
];

export const DEFAULT_PYTHON = '3.13';

/**
 * Picks the Python version: an explicit choice (`--python`), else SKIFF_PYTHON, else 3.13.
 * Accepts '3.13', '313', 'py313' and 'python3.13'.
 * @example resolvePythonVersion('3.12').pkg === 'py312'
 */
export function resolvePythonVersion(choice?: string | null): PythonVersion {
  const raw = (choice || process.env.SKIFF_PYTHON || DEFAULT_PYTHON).trim();
  const m = /^(?:python|py)?\s*3\.?(\d+)$/i.exec(raw);
  const v = m ? `3.${m[1]}` : raw;
  const found = PYTHON_VERSIONS.find((p) => p.version === v);
  if (!found) {
    const known = PYTHON_VERSIONS.map((p) => p.version).join(', ');
    throw new Error(`skiff: Python '${raw}' is not available; choose one of ${known} (--python or SKIFF_PYTHON)`);
  }
  return found;
}
