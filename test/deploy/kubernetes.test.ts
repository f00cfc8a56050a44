/**
 * deploy/kubernetes/: the Indexed Job and the merge Job parse as YAML and say what tw16 needs (the
 * completion mode, the index variable, a command whose --shards matches the completions and
 * whose output is on the shared volume); the Dockerfile builds the CLI on node:20-slim from the
 * lock file and runs it as a non-root user. (Building the image needs a Docker daemon: not here.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = join(ROOT, 'deploy/kubernetes');

interface Container {
  name: string;
  image: string;
  command: string[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  volumeMounts: { name: string; mountPath: string }[];
  resources: { requests: { cpu: string } };
}
interface Job {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: {
    completionMode?: string;
    completions?: number;
    parallelism?: number;
    template: { spec: { restartPolicy: string; securityContext?: { runAsNonRoot?: boolean; runAsUser?: number }; containers: Container[]; volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[] } };
  };
}

/** Every document of a YAML file; a syntax error fails the test with the parser's message. */
function load(file: string): { kind: string }[] {
  const docs = parseAllDocuments(readFileSync(join(DIR, file), 'utf8'));
  if (!Array.isArray(docs)) throw new Error(`${file}: not a YAML stream`);
  for (const d of docs) expect(d.errors.map((e) => e.message), file).toEqual([]);
  return docs.map((d) => d.toJS() as { kind: string });
}

/** The value after `flag` in a command. */
const flag = (command: readonly string[], name: string): string | undefined => {
  const i = command.indexOf(name);
  return i >= 0 ? command[i + 1] : undefined;
};

describe('deploy/kubernetes', () => {
  const docs = load('tw16-job.yaml');
  const job = docs.find((d) => d.kind === 'Job') as unknown as Job;
  const pvc = docs.find((d) => d.kind === 'PersistentVolumeClaim') as unknown as { metadata: { name: string }; spec: { accessModes: string[] } };
  const c = job.spec.template.spec.containers[0]!;

  it('tw16-job.yaml: an Indexed Job whose pods run tw16 run --shard auto with --shards equal to its completions', () => {
    expect(job.apiVersion).toBe('batch/v1');
    expect(job.spec.completionMode).toBe('Indexed');
    expect(job.spec.completions).toBeGreaterThan(1);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(c.command.slice(0, 2)).toEqual(['tw16', 'run']);
    expect(c.command[2]).toMatch(/\.json$/);
    expect(flag(c.command, '--shard')).toBe('auto');
    expect(Number(flag(c.command, '--shards'))).toBe(job.spec.completions);
    expect(c.command).toContain('--continue'); // a retried pod continues its shard
    // Node counts the machine's cores, not the pod's share: the workers are the CPU request.
    expect(Number(flag(c.command, '--workers'))).toBe(Number(c.resources.requests.cpu));
  });

  it('the index variable comes from the Job (JOB_COMPLETION_INDEX, the completion-index annotation)', () => {
    const index = c.env?.find((e) => e.name === 'JOB_COMPLETION_INDEX');
    expect(index?.valueFrom?.fieldRef?.fieldPath).toBe("metadata.annotations['batch.kubernetes.io/job-completion-index']");
  });

  it('every pod writes under --out on one shared ReadWriteMany volume, as a non-root user', () => {
    const out = flag(c.command, '--out')!;
    const mount = c.volumeMounts.find((m) => out.startsWith(`${m.mountPath}/`));
    expect(mount, `${out} is not on a mounted volume`).toBeDefined();
    const volume = job.spec.template.spec.volumes.find((v) => v.name === mount!.name);
    expect(volume?.persistentVolumeClaim?.claimName).toBe(pvc.metadata.name);
    expect(pvc.spec.accessModes).toEqual(['ReadWriteMany']);
    expect(job.spec.template.spec.securityContext?.runAsNonRoot).toBe(true);
    expect(job.spec.template.spec.securityContext?.runAsUser).not.toBe(0);
  });

  it('tw16-merge.yaml merges the shards from the same volume into --out (the glob without a shell: tw16 expands it)', () => {
    const merge = load('tw16-merge.yaml').find((d) => d.kind === 'Job') as unknown as Job;
    const m = merge.spec.template.spec.containers[0]!;
    const out = flag(c.command, '--out')!;
    expect(m.command.slice(0, 3)).toEqual(['tw16', 'merge', out]);
    expect(m.command[3]).toBe(`${out}/shard-*`);
    expect(m.image).toBe(c.image);
    expect(merge.spec.template.spec.volumes.find((v) => v.persistentVolumeClaim)?.persistentVolumeClaim?.claimName).toBe(pvc.metadata.name);
  });

  it('the Dockerfile: node:20-slim, npm ci --omit=dev from the lock file, a non-root user, tw16 as the entry point', () => {
    const text = readFileSync(join(DIR, 'Dockerfile'), 'utf8');
    const lines = text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    const froms = lines.filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBe(2);
    for (const f of froms) expect(f).toMatch(/^FROM node:20-slim\b/);
    const runtime = lines.slice(lines.indexOf(froms[1]!));
    expect(runtime.some((l) => /^RUN npm ci --omit=dev\b/.test(l))).toBe(true);
    expect(runtime.some((l) => /^COPY package\.json package-lock\.json /.test(l))).toBe(true);
    expect(runtime.filter((l) => l.startsWith('USER ')).at(-1)).toBe('USER node');
    expect(runtime.find((l) => l.startsWith('ENTRYPOINT'))).toBe('ENTRYPOINT ["tw16"]');
    // The pods' image is the one the Dockerfile names in its usage line.
    expect(text).toMatch(new RegExp(`-t tw16:${c.image.split(':').at(-1)!.replace(/\./g, '\\.')}\\b`));
  });
});
