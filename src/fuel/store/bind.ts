/**
 * A backend's store from its operations: each backend writes its operations as functions of its
 * connection (`sqlite/read.ts`, `postgres/write.ts`, ...), and this binds them to one connection, so the
 * two `index.ts` files only say which functions make the store.
 */
import type { FuelStore, StationRowReads } from './store';

type Store = FuelStore & StationRowReads;
type Operation = Exclude<keyof Store, 'backend' | 'close'>;

/** Every operation of the store, written as a function of the backend's connection `C`. */
export type Operations<C> = {
  [K in Operation]: Store[K] extends (...args: infer A) => infer R ? (c: C, ...args: A) => R : never;
};

export function bindStore<C>(
  c: C,
  backend: Store['backend'],
  operations: Operations<C>,
  close: () => Promise<void>,
): Store {
  const bound = Object.fromEntries(
    Object.entries(operations).map(([name, fn]) => [
      name,
      (...args: unknown[]) => (fn as (c: C, ...rest: unknown[]) => unknown)(c, ...args),
    ]),
  ) as unknown as Omit<Store, 'backend' | 'close'>;
  return { ...bound, backend, close };
}
