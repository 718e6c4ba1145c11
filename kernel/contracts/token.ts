/**
 * Typed names: a container token names a component and carries its type, a contract id names a descriptor file
 * and carries the type of the implementations it lists, so resolving or loading either needs no cast. Both are
 * plain strings at run time: plain JavaScript, or a package with its own copy of Sluice, names them by the text.
 */
declare const carries: unique symbol;

export type Token<T> = string & { readonly [carries]?: T };

export function token<T>(name: string): Token<T> {
  return name as Token<T>;
}
