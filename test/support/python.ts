/** The python3 to run the Python package and examples with: the first that can import numpy (the PATH's, then Debian's /usr/bin/python3), or undefined. */
import { spawnSync } from 'node:child_process';

export function pythonWithNumpy(): string | undefined {
  for (const py of ['python3', '/usr/bin/python3']) {
    if (spawnSync(py, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0) return py;
  }
  return undefined;
}
