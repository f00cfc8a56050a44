/** Run `tw16 ARGS` in-process through main(), capturing stdout and stderr. */
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
  try {
    return { code: await main(args), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
    process.exitCode = 0;
  }
}
