/** Commands printed for a user to run (replay, resume): each word quoted for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  return /^[\w.,/:@+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
