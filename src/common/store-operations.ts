/**
 * A store from its operations, for every service: each operation is written as a function of the
 * backend's connection (`queries/chats.ts`, `sqlite/read.ts`, ...) and named in one explicit object, so
 * go-to-definition leads from a store method to its code; binding hands each the one connection.
 */

/** Every method `K` of store `S`, written as a function of the connection `C`. */
export type Operations<S, K extends keyof S, C> = {
  [P in K]: S[P] extends (...args: infer A) => infer R ? (c: C, ...args: A) => R : never;
};

/** The operations as the store's methods, each given connection `c` first. */
export function bindOperations<S, K extends keyof S, C>(c: C, operations: Operations<S, K, C>): Pick<S, K> {
  return Object.fromEntries(
    Object.entries(operations).map(([name, fn]) => [
      name,
      (...args: unknown[]) => (fn as (c: C, ...rest: unknown[]) => unknown)(c, ...args),
    ]),
  ) as Pick<S, K>;
}
