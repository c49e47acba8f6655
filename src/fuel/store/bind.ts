/**
 * A backend's store from its operations: each backend writes its operations as functions of its
 * connection (`sqlite/read.ts`, `postgres/write.ts`, ...), and this binds them to one connection, so the
 * two `index.ts` files only say which functions make the store.
 */
import { bindOperations, type Operations as StoreOperations } from '../../common/store-operations';
import type { FuelStore, StationRowReads } from './store';

type Store = FuelStore & StationRowReads;
type Operation = Exclude<keyof Store, 'backend' | 'close'>;

/** Every operation of the store, written as a function of the backend's connection `C`. */
export type Operations<C> = StoreOperations<Store, Operation, C>;

export function bindStore<C>(
  c: C,
  backend: Store['backend'],
  operations: Operations<C>,
  close: () => Promise<void>,
): Store {
  return { ...bindOperations<Store, Operation, C>(c, operations), backend, close };
}
