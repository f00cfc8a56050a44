/**
 * A small JSON Schema validator for the subset docs/protocol/tw16-bot-1.schema.json uses:
 * type (one or a list), const, enum, properties, required, additionalProperties (false or a
 * schema), prefixItems, items (for the items after prefixItems, as in 2020-12), minItems,
 * maxItems, minimum, maximum, pattern, oneOf and local $ref
 * (`#/$defs/…`). Anything else in a schema is an error, so the schema cannot use a keyword this
 * silently ignores. (ajv would do all of JSON Schema; this subset is the protocol's, and a page
 * of code keeps the tests free of a dependency.)
 */
type Schema = Record<string, unknown>;

const KNOWN = new Set([
  '$schema', '$id', '$defs', 'title', 'description',
  'type', 'const', 'enum', 'properties', 'required', 'additionalProperties', 'prefixItems', 'items', 'minItems', 'maxItems', 'minimum', 'maximum', 'pattern', 'oneOf', '$ref',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The errors of `value` against `schema` (empty when valid), each naming the path. */
export function validate(root: Schema, schema: Schema, value: unknown, path = '$'): string[] {
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) return [`${path}: schema keyword "${k}" is not supported by this validator`];
  if (typeof schema.$ref === 'string') {
    const m = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
    const target = m ? (root.$defs as Record<string, Schema> | undefined)?.[m[1]!] : undefined;
    if (!target) return [`${path}: unresolvable $ref ${schema.$ref}`];
    return validate(root, target, value, path);
  }
  const errs: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const t = typeOf(value);
    if (!types.some((x) => x === t || (x === 'number' && t === 'integer'))) return [`${path}: expected ${types.join(' or ')}, got ${t}`];
  }
  if ('const' in schema && JSON.stringify(value) !== JSON.stringify(schema.const)) errs.push(`${path}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) errs.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errs.push(`${path}: ${value} < minimum ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errs.push(`${path}: ${value} > maximum ${schema.maximum}`);
  }
  if (typeof value === 'string' && typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) errs.push(`${path}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) errs.push(`${path}: ${value.length} items < minItems ${schema.minItems}`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) errs.push(`${path}: ${value.length} items > maxItems ${schema.maxItems}`);
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
    prefix.forEach((p, i) => {
      if (i < value.length) errs.push(...validate(root, p, value[i], `${path}[${i}]`));
    });
    if (schema.items) value.forEach((v, i) => i >= prefix.length && errs.push(...validate(root, schema.items as Schema, v, `${path}[${i}]`)));
  }
  if (typeOf(value) === 'object') {
    const o = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const r of (schema.required ?? []) as string[]) if (!(r in o)) errs.push(`${path}: missing "${r}"`);
    for (const [k, v] of Object.entries(o)) {
      if (props[k]) errs.push(...validate(root, props[k]!, v, `${path}.${k}`));
      else if (schema.additionalProperties === false) errs.push(`${path}: unexpected property "${k}"`);
      else if (typeof schema.additionalProperties === 'object') errs.push(...validate(root, schema.additionalProperties as Schema, v, `${path}.${k}`));
    }
  }
  if (Array.isArray(schema.oneOf)) {
    const results = (schema.oneOf as Schema[]).map((s) => validate(root, s, value, path));
    const ok = results.filter((r) => r.length === 0).length;
    if (ok !== 1) errs.push(ok === 0 ? `${path}: matches none of oneOf (closest: ${results.reduce((a, b) => (b.length < a.length ? b : a)).join('; ')})` : `${path}: matches ${ok} of oneOf`);
  }
  return errs;
}
