/** Writing whole files so that a reader never sees half of one. */
import { renameSync, writeFileSync } from 'node:fs';

/** Write `text` to `file` via a temporary name and a rename. */
export function writeAtomic(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}
