/**
 * Where tw16 keeps its caches (the hand tables, tablecache.ts; the CLI's compiled code,
 * cli/codecache.ts): files that only save time, never inputs. `$TW16_CACHE_DIR`, else
 * `<os tmpdir>/tw16-cache`; `TW16_CACHE_DIR=off`: none (nothing read nor written).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The cache directory, or undefined when caches are off. */
export function cacheDir(): string | undefined {
  const dir = process.env.TW16_CACHE_DIR ?? join(tmpdir(), 'tw16-cache');
  return dir === 'off' ? undefined : dir;
}
