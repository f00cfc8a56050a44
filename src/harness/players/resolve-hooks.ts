/**
 * Module resolution hooks (node:module `register`) for bot modules kept outside this package:
 * an `import 'tw16'` (or 'tw16/…') that Node cannot resolve from the bot's own directory — no
 * node_modules/tw16 there — resolves to this tw16 instead. Anything that resolves on its own is
 * left alone, so a bot with tw16 installed beside it gets that one.
 */
interface Context {
  readonly parentURL?: string;
  readonly conditions?: readonly string[];
}
type Next = (specifier: string, context: Context) => Promise<unknown>;

/** The URL of this tw16's package.json, from `register`'s data. */
let root = '';

export function initialize(data: { root: string }): void {
  root = data.root;
}

export async function resolve(specifier: string, context: Context, next: Next): Promise<unknown> {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (root && (specifier === 'tw16' || specifier.startsWith('tw16/'))) return next(specifier, { ...context, parentURL: root });
    throw err;
  }
}
