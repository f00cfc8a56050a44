/**
 * A copy of a complete result whose hands.arrow holds no luck feature columns (a run that did not
 * record them), made from one that does: the same rows and schema metadata, the other files as they are.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ArrowTableWriter } from '../../src/harness/io/arrow.js';
import { readBatches, readMetadata, toBatch } from '../../src/harness/io/read.js';
import { handColumnsIn } from '../../src/harness/results/records.js';
import { commitResult, readManifest, withStaging } from '../../src/harness/results/resultdir.js';

export async function withoutLuckFeatures(from: string, to: string): Promise<void> {
  const cols = handColumnsIn([]);
  const m = readManifest(from);
  mkdirSync(to, { recursive: true });
  await withStaging(to, async (staging) => {
    const out = new ArrowTableWriter(join(staging, 'hands.arrow'), cols, await readMetadata(join(from, 'hands.arrow')));
    for await (const rb of readBatches(join(from, 'hands.arrow'))) out.append(toBatch(rb, cols));
    out.commit();
    for (const f of m.files) if (f.name !== 'hands.arrow') copyFileSync(join(from, f.name), join(staging, f.name));
    const { format: _format, files: _files, ...info } = m;
    await commitResult(to, staging, info);
  });
}
