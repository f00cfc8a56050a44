/**
 * `npm run golden:update`: regenerate test/golden/ after an intended change to the engine,
 * bots or rules, printing the `tw16 diff` of old against new records for every profile that moved.
 */
import { fileURLToPath } from 'node:url';
import { formatDiff } from '../src/cli/diff.js';
import { updateGolden } from '../src/harness/run/golden.js';

const dir = fileURLToPath(new URL('../../test/golden', import.meta.url));
const moved = await updateGolden(dir, (s) => process.stdout.write(`${s}\n`), formatDiff);
process.stdout.write(moved.length ? `updated: ${moved.join(', ')} (review the diffs above, then commit test/golden/)\n` : 'golden records unchanged\n');
